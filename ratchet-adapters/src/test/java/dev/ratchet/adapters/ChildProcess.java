package dev.ratchet.adapters;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.time.InstantSource;

/**
 * The child JVM of the kill tests: it dies by {@code Runtime.halt} — no shutdown hooks, no finally
 * blocks, no flushing — exactly inside the adapter's window between the external commit and the
 * answer.
 *
 * <ul>
 *   <li>{@code workspace <root> <key>}: appends to {@code log.txt}, halting after the rename and
 *       before the receipt is journaled;
 *   <li>{@code service <db>}: runs the reference service, prints its port, and halts after the
 *       first committed write, before the response is sent.
 * </ul>
 */
public final class ChildProcess {
  static final int HALTED = 137;

  private ChildProcess() {}

  public static void main(String[] args) throws Exception {
    InstantSource clock = InstantSource.fixed(Workspaces.START);
    if (args[0].equals("workspace")) {
      WorkspaceAdapter ws =
          WorkspaceAdapter.builder(Path.of(args[1]))
              .clock(clock)
              .entropy(new SeededEntropy(1))
              .crashSeam(p -> Runtime.getRuntime().halt(HALTED))
              .open();
      ws.execute(
          Workspaces.append("log.txt", "A\n", ""),
          args[2],
          new Fence("run-1", "child", 1),
          ApprovalBinding.NONE);
      System.exit(1); // unreachable: the seam halts first
    }
    ReferenceService s = ReferenceService.start(Path.of(args[1]), 0, clock, new SeededEntropy(1));
    s.crashSeam(p -> Runtime.getRuntime().halt(HALTED));
    System.out.println(s.uri().getPort());
    System.out.flush();
    Thread.sleep(60_000);
    System.exit(1); // nobody called: fail the test by timeout rather than hang
  }
}
