package dev.ratchet.harness.demo;

import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.Seams;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry point of the demo's worker JVMs ({@code java -cp … dev.ratchet.harness.demo.
 * DemoWorkerMain --home H --task FILE --run-id R …}): the crash harness's child, outside the {@code
 * ratchet} command space. Its arguments come from {@link DemoWorkers} only.
 */
public final class DemoWorkerMain {
  private static final List<String> FLAGS = List.of("--start", "--canary");

  private DemoWorkerMain() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    int code;
    try {
      code = new DemoWorker(options(args), out, Seams.systemClock(), Seams.secureEntropy()).call();
    } catch (RatchetException e) {
      out.println(DemoWorker.EXIT + e.code().exitCode() + " " + e.code() + ": " + e.getMessage());
      code = e.code().exitCode();
    }
    out.flush();
    System.exit(code);
  }

  static DemoWorker.Options options(String[] args) {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      a.put(args[i], FLAGS.contains(args[i]) ? "true" : args[++i]);
    }
    return new DemoWorker.Options(
        new DemoHome(Path.of(a.get("--home"))),
        Path.of(a.get("--task")),
        a.get("--run-id"),
        a.containsKey("--start"),
        a.containsKey("--crash-at") ? CrashPoint.valueOf(a.get("--crash-at")) : null,
        a.containsKey("--canary"),
        Long.parseLong(a.get("--lease-ttl-ms")),
        a.get("--worker-id"));
  }
}
