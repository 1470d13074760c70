package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 3 (D30): a console whose pages cannot be turned against the signer. A preview is
 * signed only on the route it was shown for, within its lifetime, and previews are bounded;
 * sessions expire and their tokens are never printed; hidden characters in agent-written text are
 * shown escaped and arguments as formatted canonical JSON; malformed input answers 400 without a
 * stack.
 */
class ConsoleHardeningTest {
  private static final String APPROVE = "/runs/" + ConsoleFixture.APPROVE + "/approve";
  private static final String CANCEL = "/runs/" + ConsoleFixture.APPROVE + "/cancel";

  @TempDir Path dir;
  private ConsoleFixture f;
  private String token;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
    token = Sessions.login(f.server);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private HttpResponse<String> get(String path, String bearer) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(f.base() + path)).header("Cookie", f.signerCookie(path));
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as(name + " in " + html).isTrue();
    return m.group(1);
  }

  /** Signs the preview page {@code page} by posting it to {@code route}. */
  private HttpResponse<String> sign(String route, String page) throws Exception {
    return post(
        route,
        "preview=" + field(page, "preview") + "&csrf=" + field(page, "csrf") + f.signature(page));
  }

  private int inboxSize() {
    return f.inbox("deploy-greeting", ConsoleFixture.APPROVE).size();
  }

  @Test
  void aPreviewPostedToAnotherRouteIsRefusedAndNothingIsDelivered() throws Exception {
    String cancel = get(CANCEL, token).body();
    HttpResponse<String> r = sign(APPROVE, cancel);
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("shown for " + CANCEL).contains("nothing was signed");
    String approval = get(APPROVE, token).body();
    assertThat(sign(CANCEL, approval).statusCode()).isEqualTo(409);
    // Another run's route: refused as well.
    assertThat(sign("/runs/" + ConsoleFixture.CONFLICT + "/approve", get(APPROVE, token).body()))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(409);
    assertThat(inboxSize()).as("nothing delivered").isZero();
    // A refused preview is used up: it is not signed later on its own route either.
    assertThat(sign(CANCEL, cancel).statusCode()).isEqualTo(409);
    assertThat(inboxSize()).isZero();
  }

  @Test
  void aPreviewExpiresAfterTenMinutes() throws Exception {
    String late = get(APPROVE, token).body();
    f.clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    HttpResponse<String> r = sign(APPROVE, late);
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("expired");
    assertThat(inboxSize()).isZero();
    String inTime = get(APPROVE, token).body();
    f.clock.advance(Duration.ofMinutes(9));
    assertThat(sign(APPROVE, inTime).statusCode()).isEqualTo(303);
    assertThat(inboxSize()).isEqualTo(1);
  }

  @Test
  void previewsAreBoundedAndTheOldestIsForgotten() throws Exception {
    String first = get(APPROVE, token).body();
    String last = null;
    for (int i = 0; i < Previews.MAX; i++) {
      last = get(APPROVE, token).body();
    }
    assertThat(sign(APPROVE, first).statusCode()).as("forgotten").isEqualTo(409);
    assertThat(inboxSize()).isZero();
    assertThat(sign(APPROVE, last).statusCode()).isEqualTo(303);
    assertThat(inboxSize()).isEqualTo(1);
  }

  @Test
  void sessionsExpireAndLoginAddressesAreOneTime() throws Exception {
    String used = f.server.url();
    String next = Sessions.login(f.server);
    assertThat(get("/", next).statusCode()).isEqualTo(200);
    // The address just used is spent; a new one was printed.
    assertThat(
            http.send(
                    HttpRequest.newBuilder(URI.create(used)).build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(401);
    f.clock.advance(Duration.ofHours(12).plusSeconds(1));
    assertThat(get("/", next).statusCode()).as("expired").isEqualTo(401);
    assertThat(get("/", token).statusCode()).as("expired").isEqualTo(401);
    assertThat(get("/", Sessions.login(f.server)).statusCode()).isEqualTo(200);
  }

  @Test
  void theTerminalShowsOneTimeLoginAddressesAndNeverASessionToken() throws Exception {
    String other = Sessions.login(f.server);
    String printed = f.terminal.toString();
    assertThat(printed).contains("/login?code=").contains(f.server.url());
    assertThat(printed).doesNotContain(token).doesNotContain(other);
    // Nor does any page or API answer carry it.
    assertThat(get("/", token).body()).doesNotContain(token);
    assertThat(get("/api/runs", token).body()).doesNotContain(token);
  }

  @Test
  void hiddenCharactersInAgentTextAreShownEscapedOnEveryPageLeadingToASignature() throws Exception {
    // U+202E reverses what follows: "amount 9001" would read as "amount 1009".
    f.runWaitingToAppend("r-bidi", "bidi-task", "amount \\u202E1009\\u200B\\u2066 ok");
    String run = get("/runs/r-bidi", token).body();
    String preview = get("/runs/r-bidi/approve", token).body();
    for (String page : new String[] {run, preview}) {
      assertThat(page)
          .doesNotContain("\u202E")
          .doesNotContain("\u200B")
          .doesNotContain("\u2066")
          .contains("amount <span class=\"hidden-char\">\\u202E</span>1009")
          .contains("<span class=\"hidden-char\">\\u200B</span>")
          .contains("<span class=\"hidden-char\">\\u2066</span>");
    }
    // The arguments of the write, formatted: canonical member order, one a line.
    assertThat(preview)
        .contains(
            "<pre id=\"arguments\">{\n  &quot;content&quot;: &quot;amount <span"
                + " class=\"hidden-char\">\\u202E</span>1009")
        .contains(",\n  &quot;path&quot;: &quot;log.txt&quot;\n}</pre>");
  }

  /** Sends {@code head} as is (no client library would send a malformed target); the response. */
  private String raw(String head, String body) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", f.server.address().getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          (head
                  + "\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void malformedInputAnswers400WithoutAStackTraceBeforeAndAfterAuthentication() throws Exception {
    String cookie = "\r\nCookie: " + Guard.COOKIE + "=" + token;
    for (String auth : new String[] {"", cookie}) {
      for (String target : new String[] {"/?phase=%zz", "/login?code=%", "/runs/%G1"}) {
        String r = raw("GET " + target + " HTTP/1.1" + auth, "");
        assertThat(r).as(target).startsWith("HTTP/1.1 400");
        // The JDK's server refuses a malformed target itself ("URISyntaxException thrown"): a
        // name, never a stack.
        assertThat(r).doesNotContain("at dev.").doesNotContain("at java.").doesNotContain("\tat ");
      }
    }
    // A form with a malformed escape: read only after authentication, then 400 as well.
    String form =
        raw(
            "POST "
                + APPROVE
                + " HTTP/1.1"
                + cookie
                + "\r\nContent-Type: application/x-www-form-urlencoded",
            "preview=%zz&csrf=x");
    assertThat(form).startsWith("HTTP/1.1 400").contains("malformed %-escape");
    assertThat(form).doesNotContain("Exception").doesNotContain("at dev.");
    String unauthenticated =
        raw(
            "POST " + APPROVE + " HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded",
            "preview=%zz&csrf=x");
    assertThat(unauthenticated).startsWith("HTTP/1.1 401");
    assertThat(inboxSize()).isZero();
    assertThat(get("/", token).statusCode()).as("still serving").isEqualTo(200);
  }
}
