package dev.ratchet.ops;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The seam between {@code ratchet console} (option parsing, keys) and the console's HTTP server in
 * the ratchet-console module, found with {@code ServiceLoader} so the command line does not depend
 * on the server (ADR 0090).
 */
public interface ConsoleLauncher {
  /** Starts serving; returns the running console. */
  Running start(Request request);

  /**
   * What the console serves with.
   *
   * @param tls the certificate to serve HTTPS with, or null: plain HTTP, then on loopback only
   * @param sessionTtl how long a login session lasts (D30; default 12 h)
   * @param previewTtl how long a shown decision may still be signed (D30; default 10 min)
   * @param out the terminal: where the console prints its one-time login addresses, nowhere else
   */
  record Request(
      Services services,
      Settings settings,
      InetSocketAddress bind,
      Tls tls,
      Duration sessionTtl,
      Duration previewTtl,
      PrintWriter out) {
    public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(12);
    public static final Duration DEFAULT_PREVIEW_TTL = Duration.ofMinutes(10);

    public Request {
      java.util.Objects.requireNonNull(sessionTtl, "sessionTtl");
      java.util.Objects.requireNonNull(previewTtl, "previewTtl");
    }
  }

  /**
   * A PKCS#12 key store holding the console's certificate and key, and its password (from the
   * environment, never an option).
   */
  record Tls(java.nio.file.Path keystore, char[] password) {
    public static final String PASSWORD_ENV = "RATCHET_CONSOLE_TLS_PASSWORD";

    public Tls {
      java.util.Objects.requireNonNull(keystore, "keystore");
      password = password == null ? new char[0] : password.clone();
    }

    @Override
    public String toString() {
      return "Tls[" + keystore + "]";
    }
  }

  /** A started console. */
  interface Running extends AutoCloseable {
    /** The one-time login address to open (a new one replaces it once used). */
    String url();

    /** Blocks until the console stops. */
    void await() throws InterruptedException;

    @Override
    void close();
  }
}
