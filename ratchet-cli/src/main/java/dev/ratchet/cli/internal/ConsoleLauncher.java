package dev.ratchet.cli.internal;

import dev.ratchet.sign.SigningKey;
import java.io.PrintWriter;
import java.net.InetSocketAddress;

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
   * @param approver the operator's own approver key, or null (approve buttons then explain how)
   * @param reviewer the operator's own reviewer key, or null
   * @param operator the operator's own operator key (ADR 0051), or null (cancel then explains how)
   * @param out where the console prints its address and session token
   */
  record Request(
      Services services,
      Settings settings,
      SigningKey approver,
      SigningKey reviewer,
      SigningKey operator,
      InetSocketAddress bind,
      PrintWriter out) {}

  /** A started console. */
  interface Running extends AutoCloseable {
    /** The address to open, with the session token. */
    String url();

    /** Blocks until the console stops. */
    void await() throws InterruptedException;

    @Override
    void close();
  }
}
