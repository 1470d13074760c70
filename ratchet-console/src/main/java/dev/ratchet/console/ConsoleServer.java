package dev.ratchet.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.metrics.PrometheusEndpoint;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.LiveConfig;
import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.seam.CrashSeam;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The console's HTTP server (the JDK's, ADR 0090): authenticates every request with the session
 * token, checks the CSRF token on every POST, opens the store read-side per request and serves the
 * pages, the JSON API and the signing actions. It holds no lease token and no private key: the
 * browser signs (D30).
 */
public final class ConsoleServer implements ConsoleLauncher.Running {
  private static final int MAX_FORM = 16 * 1024;

  /** Console meters (docs/telemetry.md): decisions signed and delivered, requests refused. */
  public static final String DELIVERED = "ratchet.console.delivered";

  public static final String REFUSED = "ratchet.console.refused";

  private final ConsoleLauncher.Request config;
  private final HttpServer http;
  private final ExecutorService pool;
  private final Guard guard;
  private final Actions actions;
  private final Reads reads;
  private final PrometheusMeterRegistry registry;
  private final ConsoleMeters meters;
  private final LiveConfig liveConfig;
  private final CountDownLatch stopped = new CountDownLatch(1);

  private ConsoleServer(
      ConsoleLauncher.Request config, HttpServer http, PrometheusMeterRegistry registry) {
    this.config = config;
    this.http = http;
    this.registry = registry;
    this.meters = new ConsoleMeters(registry);
    this.pool = Executors.newFixedThreadPool(4);
    this.guard =
        new Guard(config.services().entropy(), config.services().clock(), config.sessionTtl());
    this.reads = new Reads(config);
    this.actions = new Actions(config, reads);
    // Issue 39: a changed ratchet.properties is noticed at the next request and logged on the
    // terminal; every key it has picks the store or a login, so none applies before a restart.
    this.liveConfig =
        new LiveConfig(
            config.settings().configuration(),
            Set.of(),
            line -> {
              config.out().println("ratchet console: " + line);
              config.out().flush();
            },
            config.services().clock());
  }

  /**
   * Starts the console on {@code config.bind()}; {@code registry} (may be null) is served as
   * Prometheus text on {@code /metrics}, behind the session token like everything else.
   */
  public static ConsoleServer start(
      ConsoleLauncher.Request request, PrometheusMeterRegistry registry) {
    // The home's file as it is now, kept for every request's store (issue 39).
    ConsoleLauncher.Request config =
        new ConsoleLauncher.Request(
            request.services(),
            request.settings().pinned(),
            request.bind(),
            request.tls(),
            request.sessionTtl(),
            request.previewTtl(),
            request.out());
    HttpServer http = Listener.open(config);
    ConsoleServer s = new ConsoleServer(config, http, registry);
    http.createContext("/", s::handle);
    http.setExecutor(s.pool);
    http.start();
    return s;
  }

  public InetSocketAddress address() {
    return http.getAddress();
  }

  /** The one-time login address: what the operator opens (printed on the terminal only). */
  @Override
  public String url() {
    return origin() + "/login?code=" + guard.loginCode();
  }

  private String origin() {
    InetSocketAddress a = http.getAddress();
    String host =
        a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return (config.tls() == null ? "http://" : "https://") + host + ":" + a.getPort();
  }

  @Override
  public void await() throws InterruptedException {
    stopped.await();
  }

  @Override
  public void close() {
    http.stop(0);
    pool.shutdownNow();
    stopped.countDown();
  }

  private void handle(HttpExchange x) {
    try (x) {
      try {
        x.getResponseHeaders().set("Cache-Control", "no-store");
        x.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        x.getResponseHeaders().set("X-Frame-Options", "DENY");
        x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        x.getResponseHeaders()
            .set(
                "Content-Security-Policy",
                "default-src 'self'; frame-ancestors 'none'; form-action 'self'");
        Guard.query(x); // a malformed query is refused (400) before anything else reads it
        if (x.getRequestURI().getPath().equals("/login")) {
          login(x);
          return;
        }
        if (!guard.authenticated(x)) {
          refused("no_session");
          send(
              x,
              401,
              "text/plain; charset=utf-8",
              "session required or expired: open the newest login address 'ratchet console'"
                  + " printed on its terminal");
          return;
        }
        liveConfig.check();
        route(x);
      } catch (BadRequest e) {
        // Before or after authentication: the message names what is wrong, never a stack.
        refused("bad_request");
        send(x, 400, "text/plain; charset=utf-8", "bad request: " + e.getMessage());
      } catch (RuntimeException e) {
        refused(ErrorCode.INTERNAL.name());
        send(
            x,
            500,
            "text/plain; charset=utf-8",
            "internal error (" + e.getClass().getSimpleName() + "): nothing was done");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code /login?code=…}: the one-time code for a session cookie, then to the runs page; a new
   * login address goes to the terminal for the next browser. A used or wrong code is refused.
   */
  private void login(HttpExchange x) throws IOException {
    String token = guard.login(Guard.query(x).get("code"));
    if (token == null) {
      refused("bad_login");
      send(
          x,
          401,
          "text/plain; charset=utf-8",
          "this login address was used already or is wrong: open the newest one 'ratchet console'"
              + " printed on its terminal");
      return;
    }
    // Printed before the answer goes out, so whoever logged in finds the next address printed.
    synchronized (config.out()) {
      config.out().println("Logged in. The next one-time login address: " + url());
      config.out().flush();
    }
    x.getResponseHeaders().add("Set-Cookie", guard.cookie(token, config.tls() != null));
    x.getResponseHeaders().set("Location", "/");
    x.sendResponseHeaders(303, -1);
  }

  private void route(HttpExchange x) throws IOException {
    String method = x.getRequestMethod();
    String path = x.getRequestURI().getPath();
    if ("POST".equals(method)) {
      Map<String, String> form = form(x);
      if (!guard.csrfOk(x, form)) {
        refused("no_csrf");
        send(x, 403, "text/plain; charset=utf-8", "CSRF token missing or wrong: nothing was done");
        return;
      }
      respond(x, () -> actions.post(path, form));
      return;
    }
    if (!"GET".equals(method)) {
      send(x, 405, "text/plain; charset=utf-8", "method not allowed");
      return;
    }
    if (path.equals("/assets/console.css") || path.equals("/assets/console.js")) {
      String name = path.substring("/assets/".length());
      try (InputStream in = ConsoleServer.class.getResourceAsStream(name)) {
        send(
            x,
            200,
            name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
            new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
      return;
    }
    if (path.equals("/metrics") && registry != null) {
      PrometheusEndpoint.handler(registry).handle(x);
      return;
    }
    if (path.startsWith("/api/")) {
      respond(x, () -> Reply.json(reads.api(path.substring(4))));
      return;
    }
    respond(
        x,
        () ->
            actions.get(
                path,
                Guard.query(x),
                guard.csrfToken(),
                Guard.cookieValue(x, Actions.SIGNER_COOKIE)));
  }

  /** Counts a refused request (console metrics; nothing but the reason). */
  private void refused(String reason) {
    meters.refused(reason);
  }

  private void respond(HttpExchange x, java.util.function.Supplier<Reply> r) throws IOException {
    Reply reply;
    try {
      reply = r.get();
      if (reply.location() != null) {
        meters.delivered();
      }
    } catch (BadRequest e) {
      throw e;
    } catch (RatchetException e) {
      refused(e.code().name());
      reply = refusal(x, e);
    } catch (RuntimeException e) {
      // Not a typed refusal: show only its type (its message may quote anything).
      refused(ErrorCode.INTERNAL.name());
      reply =
          refusal(
              x,
              new RatchetException(
                  ErrorCode.INTERNAL, "unexpected " + e.getClass().getSimpleName(), e));
    }
    if (reply.location() != null) {
      x.getResponseHeaders().set("Location", reply.location());
      x.sendResponseHeaders(303, -1);
      return;
    }
    send(x, reply.status(), reply.type(), reply.body());
  }

  /** A refusal as the page or API document says it: code and message, never a stack. */
  private static Reply refusal(HttpExchange x, RatchetException e) {
    int status;
    switch (e.code()) {
      case CONTRACT:
      case STALE_OBSERVATION: // the environment changed since the preview: sign again
        status = 409;
        break;
      case CHECKPOINT:
      case APPROVAL:
        status = 422;
        break;
      case STORE_UNAVAILABLE:
        status = 503;
        break;
      default:
        status = 500;
    }
    if (x.getRequestURI().getPath().startsWith("/api/")) {
      return new Reply(
          status,
          "application/json",
          Canonical.string(
              JsonObject.builder()
                  .put("error_code", e.code().name())
                  .put("problem", String.valueOf(e.getMessage()))
                  .build()),
          null);
    }
    String reason =
        e instanceof DecisionRefused d
            ? "<p>Refused: <code id=\"reason\">" + d.reason().wireName() + "</code></p>"
            : "";
    return new Reply(
        status,
        "text/html; charset=utf-8",
        Html.page(
            "Refused",
            reason
                + "<p class=\"refused\" id=\"problem\">"
                + Html.esc(e.code().name() + ": " + e.getMessage())
                + "</p><p><a href=\"/\">Back to the runs</a></p>"),
        null);
  }

  private static Map<String, String> form(HttpExchange x) throws IOException {
    byte[] body = x.getRequestBody().readNBytes(MAX_FORM + 1);
    if (body.length > MAX_FORM) {
      throw new BadRequest("form: larger than " + MAX_FORM + " bytes");
    }
    return Guard.decode(new String(body, StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange x, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  /**
   * Opens the store for one request's reads (D26, ADR 0091): read-only on SQLite, as the inspector
   * role on PostgreSQL (when its login is configured). Never creates; the caller closes it.
   */
  static Session open(ConsoleLauncher.Request config) {
    return Session.open(
        config.services(),
        config.settings().as(PgRole.INSPECTOR),
        StoreFactory.Mode.READ_ONLY,
        CrashSeam.NONE);
  }

  /**
   * Opens the store to deliver one signed decision: as the operator role on PostgreSQL, whose only
   * write is {@code ratchet_deliver}; SQLite has no roles, so this one connection may write.
   */
  static Session openToDeliver(ConsoleLauncher.Request config) {
    return Session.open(
        config.services(),
        config.settings().as(PgRole.OPERATOR),
        StoreFactory.Mode.MUST_EXIST,
        CrashSeam.NONE);
  }

  /** A response: a page, a JSON document, or a redirect after a POST. */
  record Reply(int status, String type, String body, String location) {
    static Reply html(String title, String body) {
      return new Reply(200, "text/html; charset=utf-8", Html.page(title, body), null);
    }

    static Reply json(JsonObject o) {
      return new Reply(200, "application/json", Canonical.string(o), null);
    }

    static Reply redirect(String to) {
      return new Reply(303, "text/plain", "", to);
    }

    static Reply notFound() {
      return new Reply(
          404, "text/html; charset=utf-8", Html.page("Not found", "<p>No such page.</p>"), null);
    }
  }
}
