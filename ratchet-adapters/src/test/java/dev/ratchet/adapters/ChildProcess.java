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
 * <p>Arguments {@code workspace <root> <key>}: appends to {@code log.txt}, halting after the rename
 * and before the receipt is journaled. (The reference service's child is ratchet-harness's
 * ServiceChild.)
 */
public final class ChildProcess {
  static final int HALTED = 137;

  private ChildProcess() {}

  public static void main(String[] args) throws Exception {
    InstantSource clock = InstantSource.fixed(Workspaces.START);
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
}
