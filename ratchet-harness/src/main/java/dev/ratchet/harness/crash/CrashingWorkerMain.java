package dev.ratchet.harness.crash;

import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.harness.PausingSeam;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.WorkerProcess;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A {@code ratchet worker} that dies for real at a crash point ({@code --crash-at POINT}: SIGKILL
 * awaited, else halt) or holds the first step to reach a point for a few seconds ({@code --pause-at
 * POINT}, the drain tests): {@code java -cp <the ratchet jar> dev.ratchet.harness.crash.
 * CrashingWorkerMain --crash-at POINT --home H --worker-id W --poll 100ms …}. The crash tests'
 * entry point, outside the command line: the same worker ({@link WorkerProcess}) with a seam.
 */
public final class CrashingWorkerMain {
  private CrashingWorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    int code;
    try {
      Args a = Args.parse(args, Set.of("--once"));
      CrashSeam seam = CrashSeam.NONE;
      if (a.get("--crash-at", null) != null) {
        HaltingSeam halting = new HaltingSeam(CrashPoint.valueOf(a.get("--crash-at", null)), out);
        halting.arm();
        seam = halting;
      } else if (a.get("--pause-at", null) != null) {
        seam = new PausingSeam(CrashPoint.valueOf(a.get("--pause-at", null)), out);
      }
      WorkerProcess.Options options =
          new WorkerProcess.Options(
              a.get("--worker-id", "crash-" + ProcessHandle.current().pid()),
              Integer.parseInt(a.get("--concurrency", "1")),
              WorkerProcess.duration("--poll", a.get("--poll", "1s")),
              WorkerProcess.duration("--lease-ttl", a.get("--lease-ttl", "30s")),
              a.flag("--once"),
              "127.0.0.1",
              null);
      code = WorkerProcess.run(Services.standard(), a.settings("worker"), options, seam, err);
    } catch (RatchetException e) {
      err.println("error: " + e.getMessage());
      code = e.code().exitCode();
    }
    out.flush();
    err.flush();
    System.exit(code);
  }
}
