package dev.ratchet.harness.crash;

import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.ops.McpServer;
import dev.ratchet.ops.Services;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * A {@code ratchet mcp} server for the crash tests: {@code java -cp <the ratchet jar>
 * dev.ratchet.harness.crash.CrashingMcpMain TASK.json [--crash-at POINT] [--lease-ttl-ms N]
 * --run-id R --home H …}. It dies for real at the crash point once its runs are open, and holds its
 * leases for {@code --lease-ttl-ms} (a short lease lets the restarted server take the run over
 * quickly). The same server ({@link McpServer}) as the command line's, with a seam.
 */
public final class CrashingMcpMain {
  private CrashingMcpMain() {}

  public static void main(String[] args) throws InterruptedException {
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    int code;
    try {
      Args a = Args.parse(args, Set.of());
      String point = a.get("--crash-at", null);
      HaltingSeam halting = point == null ? null : new HaltingSeam(CrashPoint.valueOf(point), err);
      McpServer.Options options =
          new McpServer.Options(
              Path.of(a.positional().get(0)),
              a.all("--run-id"),
              a.get("--http", null),
              null,
              null,
              a.get("--console-url", null),
              a.get("--worker-id", "crash-" + ProcessHandle.current().pid()),
              Duration.ofMillis(Long.parseLong(a.get("--lease-ttl-ms", "30000"))),
              "crash-harness");
      code =
          McpServer.serve(
              Services.standard(),
              a.settings("mcp"),
              options,
              halting == null ? CrashSeam.NONE : halting,
              halting == null ? () -> {} : halting::arm,
              err);
    } catch (RatchetException e) {
      err.println("error: " + e.getMessage());
      code = e.code().exitCode();
    }
    err.flush();
    System.exit(code);
  }
}
