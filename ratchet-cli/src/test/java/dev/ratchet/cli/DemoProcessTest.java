package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.LeakScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet demo} end to end, as a newcomer runs it: real worker processes killed with SIGKILL
 * in every crash window, every intent counted once in the ledger, exit 0; and with the hidden
 * key-changing canary (SPEC D18) the same checks must fail.
 */
class DemoProcessTest {
  private static final Pattern KEPT = Pattern.compile("files kept in ([^\\s)]+)");

  @TempDir Path dir;

  @Test
  void theDemoKillsAWorkerInEveryCrashWindowAndEveryIntentTakesEffectOnce() throws IOException {
    ProcessCli cli = new ProcessCli(Files.createDirectories(dir.resolve("work")));
    ProcessCli.Result r = cli.run("demo", "--keep");
    assertThat(r.exit()).as(r.all()).isZero();
    String out = r.out();
    for (String window :
        List.of(
            "before_proposal",
            "after_intent_commit",
            "after_approval_commit",
            "adapter_after_external_commit",
            "before_receipt_commit",
            "after_receipt_commit",
            "store_between_content_and_mark")) {
      assertThat(out).contains("SIGKILL at " + window + " (exit 137)");
    }
    List<String> counts = effectCounts(out);
    assertThat(counts).hasSize(6).containsOnly("1");
    assertThat(out).contains("frozen (receipt_intent_conflict)");
    assertThat(out).contains("review: replan by rita applied");
    assertThat(out).contains("final state: run demo-run completed (verified_outcome)");
    Matcher passed =
        Pattern.compile("demo passed in ([0-9.]+) s: 7 crash windows, 8 SIGKILLs").matcher(out);
    assertThat(passed.find()).as(out).isTrue();
    assertThat(Double.parseDouble(passed.group(1)))
        .as("the README promises under a minute")
        .isLessThan(60);
    noKeyMaterialIn(out + r.err());
  }

  @Test
  void theKeyChangingCanaryMakesTheDemoFail() throws IOException {
    ProcessCli cli = new ProcessCli(Files.createDirectories(dir.resolve("canary")));
    cli.mainClass = "dev.ratchet.harness.demo.CanaryDemoMain"; // D18: a harness entry point
    ProcessCli.Result r = cli.run();
    assertThat(r.exit()).as("exit 1: the exactly-once check failed").isEqualTo(1);
    assertThat(r.out()).contains("demo FAILED").contains("with the key-changing canary in place");
    noKeyMaterialIn(r.out() + r.err());
  }

  /** The EFFECTS IN LEDGER column of the intents table. */
  private static List<String> effectCounts(String out) {
    List<String> counts = new ArrayList<>();
    boolean inTable = false;
    for (String line : out.split("\n")) {
      if (line.startsWith("INTENT ")) {
        inTable = true;
        continue;
      }
      if (inTable && line.isBlank()) {
        break;
      }
      if (inTable && !line.startsWith("---")) {
        String[] cells = line.trim().split("\\s+");
        counts.add(cells[cells.length - 1]);
      }
    }
    return counts;
  }

  /** Scans the output for the demo's own keys (kept on disk for this), then removes them. */
  private static void noKeyMaterialIn(String output) throws IOException {
    Matcher m = KEPT.matcher(output);
    assertThat(m.find()).as("the demo names its directory").isTrue();
    Path kept = Path.of(m.group(1));
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    try (Stream<Path> s = Files.walk(kept.resolve("home"))) {
      s.filter(p -> p.toString().endsWith(".key"))
          .forEach(p -> secrets.put(p.getFileName().toString(), ProcessCli.material(p)));
    }
    assertThat(secrets).hasSize(3);
    assertThat(LeakScan.of(secrets).check("demo output", output).findings()).isEmpty();
    try (Stream<Path> s = Files.walk(kept)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
