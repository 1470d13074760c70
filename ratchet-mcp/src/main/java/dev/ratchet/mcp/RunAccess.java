package dev.ratchet.mcp;

import dev.ratchet.Run;
import java.util.List;

/**
 * How the MCP server reaches the one run it serves. The server drives the run from one thread; an
 * idle server's lease can lapse, so a {@code FENCED} refusal is answered by {@link #reacquire()}
 * (resume: recovery reconciles whatever was in flight) and the call is tried once more.
 */
public interface RunAccess {
  /** The run as currently held. */
  Run current();

  /** Closes the current run if it is still open and resumes it under a fresh lease. */
  Run reacquire();

  /**
   * Whether the lease {@link #current()} holds is unexpired, so that no other process can have
   * changed the run since: what it shows is the run's latest signed state. When false, a durable
   * task's status is read only after {@link #reacquire()} (ADR 0082).
   */
  default boolean leaseLive() {
    return true;
  }

  /**
   * The nonces of the decisions (approvals, rejections, cancels) delivered to the run's inbox, in
   * delivery order: a durable task's write is tried again only when they change. Empty: never.
   */
  default List<String> decisions() {
    return List.of();
  }
}
