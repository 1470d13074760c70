package dev.ratchet.ops;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * A demo {@code ratchet demo} can run, found with {@code ServiceLoader} (ADR 0110): the demos live
 * in ratchet-harness and ratchet-agent-demo, which the command line has on its class path at run
 * time only, so no production module compiles against a harness.
 */
public interface DemoProgram {
  /** The demo's command: {@code demo} or {@code demo agent}. */
  String name();

  /**
   * Runs the demo in {@code dir} (a fresh directory the caller owns), telling the story on {@code
   * out}; 0 only if every check held.
   */
  int run(Services services, Path dir, PrintWriter out);
}
