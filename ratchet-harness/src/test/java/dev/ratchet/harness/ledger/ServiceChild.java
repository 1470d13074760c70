package dev.ratchet.harness.ledger;

import dev.ratchet.adapters.Workspaces;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.time.InstantSource;

/**
 * The child JVM of {@link ServiceKillTest}: argument {@code <db>}; it runs the reference service,
 * prints its port, and dies by {@code Runtime.halt} — no shutdown hooks, no finally blocks, no
 * flushing — after the first committed write, before the response is sent.
 */
public final class ServiceChild {
  static final int HALTED = 137;

  private ServiceChild() {}

  public static void main(String[] args) throws Exception {
    InstantSource clock = InstantSource.fixed(Workspaces.START);
    ReferenceService s = ReferenceService.start(Path.of(args[0]), 0, clock, new SeededEntropy(1));
    s.crashSeam(p -> Runtime.getRuntime().halt(HALTED));
    System.out.println(s.uri().getPort());
    System.out.flush();
    Thread.sleep(60_000);
    System.exit(1); // nobody called: fail the test by timeout rather than hang
  }
}
