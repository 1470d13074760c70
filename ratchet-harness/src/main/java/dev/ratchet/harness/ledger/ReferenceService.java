package dev.ratchet.harness.ledger;

import com.sun.net.httpserver.HttpServer;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small orders/payments service with Stripe-like idempotency, for tests and the demo: a JDK
 * {@code HttpServer} on a loopback port over a ledger in its own SQLite file. Same key and same
 * request returns the stored response; same key and another request is 409 carrying the stored
 * receipt; {@code GET /v1/receipts/{key}} looks a key up; a fencing token older than the newest
 * seen for the run (and account) is refused; an approval past its expiry is refused on the
 * service's own clock. Every route is in docs/adapters.md.
 *
 * <p>The ledger survives a restart on the same file (the instance id and fencing tokens too).
 */
public final class ReferenceService implements AutoCloseable {
  public static final String NAMESPACE = LedgerApi.NAMESPACE;

  static {
    // The JDK server leaves Nagle on unless told otherwise, which costs ~40 ms of delayed ACK per
    // loopback response. The property is read once, when the first HttpServer of the JVM starts.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final LedgerStore store;
  private final LedgerHttp http;
  private final LedgerWeb web;
  private final URI uri;
  private final String clientSecret;
  private final Path clientSecretFile;

  private ReferenceService(
      HttpServer server,
      ExecutorService executor,
      LedgerStore store,
      LedgerHttp http,
      LedgerWeb web,
      String clientSecret,
      Path clientSecretFile) {
    this.web = web;
    this.clientSecret = clientSecret;
    this.clientSecretFile = clientSecretFile;
    this.server = server;
    this.executor = executor;
    this.store = store;
    this.http = http;
    this.uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Starts on {@code 127.0.0.1:port} (0 picks a free port) with the system clock. */
  public static ReferenceService start(Path db, int port) {
    return start(db, port, Seams.systemClock(), Seams.secureEntropy());
  }

  /**
   * Starts with the given clock (approval expiry, commit times) and entropy (instance id). Clients
   * authenticate with the secret in {@link #clientSecretFile()} ({@code <db>.client-secret}, mode
   * 0600), created from {@code entropy} on the first start and kept across restarts.
   */
  public static ReferenceService start(Path db, int port, InstantSource clock, Entropy entropy) {
    Path file = db.resolveSibling(db.getFileName() + ".client-secret");
    String secret = readOrCreateSecret(file, entropy);
    return start(db, port, clock, entropy, secret, file);
  }

  /** Starts with a client secret given by the caller (written nowhere). */
  public static ReferenceService start(
      Path db, int port, InstantSource clock, Entropy entropy, String clientSecret) {
    return start(db, port, clock, entropy, clientSecret, null);
  }

  private static ReferenceService start(
      Path db,
      int port,
      InstantSource clock,
      Entropy entropy,
      String clientSecret,
      Path secretFile) {
    LedgerStore store = new LedgerStore(db, clock, NAMESPACE, () -> "ledger-" + entropy.hex128());
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
      ExecutorService executor =
          Executors.newFixedThreadPool(
              4,
              r -> {
                Thread t = new Thread(r, "ratchet-reference-service");
                t.setDaemon(true);
                return t;
              });
      LedgerHttp http = new LedgerHttp(store, clientSecret);
      server.createContext("/", http);
      // The web front end over the same ledger (docs/browser.md).
      LedgerWeb web = new LedgerWeb(store, clientSecret);
      server.createContext("/web/", web);
      server.setExecutor(executor);
      server.start();
      return new ReferenceService(server, executor, store, http, web, clientSecret, secretFile);
    } catch (IOException e) {
      store.close();
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "reference service: cannot listen on port " + port, e);
    }
  }

  /** The base URI, for example {@code http://127.0.0.1:41234}. */
  public URI uri() {
    return uri;
  }

  /** An adapter for this service with the ledger's action kinds, holding its client secret. */
  public IdempotentHttpAdapter adapter() {
    return LedgerApi.adapter(uri, clientSecret);
  }

  /** Where the client secret is (null when the caller gave it at start); never the secret. */
  public Path clientSecretFile() {
    return clientSecretFile;
  }

  /** The client secret, for a host that hands it to the clients it starts (tests, chaos). */
  public String clientSecret() {
    return clientSecret;
  }

  /** Every order in the ledger, oldest first: the external system's own count (D18). */
  public List<JsonObject> orders() {
    return store.orders();
  }

  /** Payments of {@code account}'s orders in the ledger: the service's own count (D18). */
  public long payments(String account) {
    return store.payments(account);
  }

  /** Ledger rows (orders and payments) created under {@code key}. */
  public int effects(String key) {
    return store.effects(key);
  }

  /**
   * Crash seam for tests: reached after a write (JSON API or web form) committed in the ledger and
   * before its response is sent (a child process halts there to die between its commit and its
   * answer).
   */
  public void crashSeam(CrashSeam seam) {
    http.crashSeam(Objects.requireNonNull(seam));
    web.crashSeam(seam);
  }

  /**
   * Fault for tests: the next {@code n} writes commit and then drop the connection unanswered, as
   * if the service crashed between its commit and its response.
   */
  public void loseNextResponses(int n) {
    http.loseNextResponses(n);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    store.close();
  }

  /** The secret in {@code file}, or a new one from {@code entropy} written there with mode 0600. */
  private static String readOrCreateSecret(Path file, Entropy entropy) {
    try {
      if (java.nio.file.Files.exists(file)) {
        return LedgerApi.clientSecret(file);
      }
      String secret = java.util.HexFormat.of().formatHex(entropy.bytes(32));
      java.nio.file.Files.createFile(
          file,
          java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
              java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
      java.nio.file.Files.writeString(file, secret + "\n");
      return secret;
    } catch (IOException e) {
      throw RatchetException.contract(
          "client secret file "
              + file
              + ": cannot be written ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  /** {@code ReferenceService <db-file> <port>}: runs until the process is stopped. */
  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: ReferenceService <db-file> <port>");
      System.exit(2);
    }
    ReferenceService s = start(Path.of(args[0]), Integer.parseInt(args[1]));
    System.out.println(s.uri());
    System.out.println("client secret: " + s.clientSecretFile());
  }
}
