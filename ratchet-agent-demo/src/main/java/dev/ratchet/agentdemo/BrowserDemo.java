package dev.ratchet.agentdemo;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonString;
import dev.ratchet.seam.CrashPoint;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ratchet demo browser}: one run orders and pays through the reference ledger's web front
 * end in headless Chromium (ratchet-browser), in worker JVMs. Chromium is killed mid-step while the
 * order form's request is in flight (the service has committed the order, the page has not
 * answered), and the worker JVM is killed with SIGKILL right after clicking Pay. A fresh worker
 * resumes and reconciles from the service's receipt. The demo exits 0 only if the service's own
 * ledger holds one order and one payment and the run completed verified.
 */
public final class BrowserDemo {
  private static final long LINE_TIMEOUT_MS = 180_000;

  /** One interruption and what the run made of it. */
  record Crash(String window, String step, String found, String did) {}

  private final PrintWriter out;
  private final Path dir;
  private final long startedMs = System.currentTimeMillis();
  private final List<Crash> crashes = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final AtomicInteger chromiumKilled = new AtomicInteger();
  private int workers;
  private int kills;
  private String ended = "-";

  private BrowserDemo(PrintWriter out, Path dir) {
    this.out = out;
    this.dir = dir;
  }

  /** Runs the demo in {@code dir} (empty) and returns its exit code. */
  public static int run(PrintWriter out, Path dir) {
    return new BrowserDemo(out, dir).run();
  }

  private int run() {
    try {
      AgentDemoSetup.createKeys(dir);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "demo set-up failed: " + e.getMessage());
    }
    try (ReferenceService service = ReferenceService.start(dir.resolve("ledger.db"), 0)) {
      say(
          "demo in "
              + dir
              + ": reference ledger service and its web front end at "
              + service.uri());
      // The service's own seam: after it committed the first page write, before the page's answer.
      service.crashSeam(
          p -> {
            if (p == CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT && chromiumKilled.get() == 0) {
              chromiumKilled.set(killChromium());
              say("  Chromium killed mid-step (" + chromiumKilled.get() + " processes, SIGKILL)");
            }
          });
      scenario(service);
      return report(service);
    }
  }

  private void scenario(ReferenceService service) {
    say("worker 1 starts " + BrowserDemoWorker.RUN + ": order form, then pay form, in Chromium");
    List<String> first = worker(service, true);
    if (chromiumKilled.get() == 0) {
      problems.add("Chromium was never killed mid-step: " + tail(first));
    } else {
      String did = first.contains(BrowserDemoWorker.STEP + "step-0 executed") ? "executed" : "?";
      crashes.add(
          new Crash("chromium killed mid-step", "step-0 order form", "receipt_at_service", did));
    }
    if (!first.contains(HaltingSeam.MARKER + CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT.name())) {
      problems.add("worker 1 was to die after clicking Pay: " + tail(first));
      return;
    }
    say("worker 2 resumes " + BrowserDemoWorker.RUN + " with a fresh browser");
    List<String> second = worker(service, false);
    String found = "?";
    String did = "?";
    for (String line : second) {
      if (line.startsWith(BrowserDemoWorker.RECOVERY)) {
        String[] w = line.substring(BrowserDemoWorker.RECOVERY.length()).split(" ");
        found = w[0];
        did = w[1];
      }
      if (line.startsWith(BrowserDemoWorker.ENDED)) {
        ended = line.substring(BrowserDemoWorker.ENDED.length());
      }
    }
    crashes.add(new Crash("adapter_after_external_commit", "step-1 pay form", found, did));
  }

  private List<String> worker(ReferenceService service, boolean start) {
    workers++;
    List<String> cmd =
        ChildJvm.command(
            AgentDemo.JVM_FLAGS,
            System.getProperty("java.class.path"),
            BrowserDemoWorker.class.getName(),
            List.of(
                dir.toString(),
                service.uri().toString(),
                Integer.toString(workers),
                start ? "start" : "resume"));
    try {
      ChildJvm child = ChildJvm.start(new ProcessBuilder(cmd).redirectErrorStream(true));
      String line;
      while ((line = child.next(LINE_TIMEOUT_MS)) != null) {
        say("  " + line);
        if (line.startsWith(HaltingSeam.MARKER)) {
          child.kill();
          kills++;
          say("  SIGKILL after clicking Pay (exit " + child.exitCode() + ")");
          return child.seen();
        }
      }
      if (!child.awaitExit(LINE_TIMEOUT_MS)) {
        child.kill();
      }
      return child.seen();
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "cannot start a worker: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "interrupted while a worker ran");
    }
  }

  private int report(ReferenceService service) {
    long orders =
        service.orders().stream()
            .filter(
                o ->
                    o.get("account")
                        .orElseThrow()
                        .equals(new JsonString(BrowserDemoWorker.ACCOUNT)))
            .count();
    long payments = service.payments(BrowserDemoWorker.ACCOUNT);
    out.println();
    out.printf(Locale.ROOT, "%-30s %-18s %-20s %s%n", "window", "step", "recovery found", "did");
    for (Crash c : crashes) {
      out.printf(Locale.ROOT, "%-30s %-18s %-20s %s%n", c.window(), c.step(), c.found(), c.did());
    }
    out.println();
    out.printf(Locale.ROOT, "%-10s %s%n", "effect", "count in the service's ledger");
    out.printf(Locale.ROOT, "%-10s %d%n", "order", orders);
    out.printf(Locale.ROOT, "%-10s %d%n", "payment", payments);
    out.println();
    out.println("final state: run " + BrowserDemoWorker.RUN + " " + ended);
    if (orders != 1 || payments != 1) {
      problems.add("the service counts " + orders + " orders and " + payments + " payments");
    }
    if (!ended.equals("completed")) {
      problems.add("the run ended " + ended);
    }
    if (kills != 1 || crashes.size() != 2 || crashes.stream().anyMatch(c -> c.did().equals("?"))) {
      problems.add("not every interruption happened and was recovered: " + crashes);
    }
    double s = (System.currentTimeMillis() - startedMs) / 1000.0;
    if (problems.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "demo browser passed in %.1f s: 1 SIGKILL after clicking Pay, Chromium killed mid-step"
              + " once, %d worker processes, the service counts 1 order and 1 payment%n",
          s,
          workers);
      out.flush();
      return 0;
    }
    problems.forEach(p -> out.println("FAILED: " + p));
    out.printf(Locale.ROOT, "demo browser FAILED in %.1f s; files kept in %s%n", s, dir);
    out.flush();
    return 1;
  }

  /** SIGKILL of every Chromium process below this JVM (the workers' browsers, via bubblewrap). */
  private static int killChromium() {
    List<ProcessHandle> chromes =
        ProcessHandle.current().descendants().filter(h -> isChromium(h.pid())).toList();
    chromes.forEach(ProcessHandle::destroyForcibly);
    return chromes.size();
  }

  private static boolean isChromium(long pid) {
    try {
      return new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .startsWith("/usr/lib/chromium/chromium");
    } catch (IOException e) {
      return false; // gone already
    }
  }

  private void say(String line) {
    double s = (System.currentTimeMillis() - startedMs) / 1000.0;
    out.printf(Locale.ROOT, "[%5.1fs] %s%n", s, line);
    out.flush();
  }

  private static String tail(List<String> l) {
    return String.join(" | ", l.subList(Math.max(0, l.size() - 6), l.size()));
  }
}
