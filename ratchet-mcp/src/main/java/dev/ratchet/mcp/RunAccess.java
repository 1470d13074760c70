package dev.ratchet.mcp;

import dev.ratchet.Run;

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
}
