package dev.ratchet.harness.demo;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.HaltingSeam;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One demo worker: a child JVM running {@link DemoWorkerMain} from the same class path. The parent
 * reads its event lines; on {@code CRASH <point>} it kills the child with SIGKILL ({@link
 * Process#destroyForcibly()} on Linux) and waits for it to die.
 */
final class DemoWorkers {
  /** How a worker ended. */
  record Ended(
      boolean killed, String crashPoint, int exitCode, String recoveryJson, List<String> lines) {}

  /** Called when the worker waits for an approval of this action. */
  interface Approver {
    void approve(String actionId);
  }

  private DemoWorkers() {}

  private static final String MAIN = DemoWorkerMain.class.getName();

  /**
   * The longest a worker may stay silent (waiting for a lapsed lease, an approval) before ending.
   */
  private static final long LINE_TIMEOUT_MS = 120_000;

  /** The command that starts a demo worker with {@code args} in a fresh JVM on this class path. */
  static List<String> command(List<String> args) {
    return ChildJvm.command(ChildJvm.FAST_START, System.getProperty("java.class.path"), MAIN, args);
  }

  /** Runs a worker to its end, forwarding its progress lines and answering approval waits. */
  static Ended run(
      List<String> args,
      Consumer<String> progress,
      Consumer<String> recoveries,
      Approver approver) {
    ChildJvm p;
    try {
      p = ChildJvm.start(new ProcessBuilder(command(args)).redirectErrorStream(true));
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot start a worker JVM: " + e.getMessage());
    }
    List<String> lines = new ArrayList<>();
    String crash = null;
    String recovery = null;
    try {
      String line;
      while ((line = p.next(LINE_TIMEOUT_MS)) != null) {
        lines.add(line);
        if (line.startsWith(HaltingSeam.MARKER)) {
          crash = line.substring(HaltingSeam.MARKER.length()).strip();
          p.kill();
          break;
        } else if (line.startsWith(DemoWorker.RECOVERY)) {
          recovery = line.substring(DemoWorker.RECOVERY.length());
          recoveries.accept(recovery);
        } else if (line.startsWith(DemoWorker.STEP)) {
          progress.accept(line.substring(DemoWorker.STEP.length()));
        } else if (line.startsWith(DemoWorker.AWAITING)) {
          approver.approve(line.substring(DemoWorker.AWAITING.length()).strip());
        }
      }
      if (!p.awaitExit(60_000)) {
        p.kill();
        throw new RatchetException(ErrorCode.INTERNAL, "a worker did not end within a minute");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "interrupted while waiting for a worker");
    }
    return new Ended(crash != null, crash, p.exitCode(), recovery, List.copyOf(lines));
  }
}
