package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.LeakScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet demo agent} end to end, as a newcomer runs it: two agents on the scripted model in
 * worker processes, two real SIGKILLs, a signed approval, every write once, exit 0.
 */
class DemoAgentProcessTest {
  @TempDir Path dir;

  @Test
  void theAgentDemoSurvivesTwoSigkillsAndPasses() throws IOException {
    ProcessCli cli = new ProcessCli(Files.createDirectories(dir.resolve("work")));
    ProcessCli.Result r = cli.run("demo", "agent", "--keep");
    assertThat(r.exit()).as(r.all()).isZero();
    assertThat(r.out())
        .contains("SIGKILL at after_intent_commit (exit 137)")
        .contains("SIGKILL at adapter_after_external_commit (exit 137)")
        .contains("approval of turn-2.0 (pay_order) signed by alice (Ed25519)")
        .contains("RECOVERY effect_without_receipt reconciled")
        .contains("final state: run repair-run completed")
        .contains("final state: run pay-run completed");
    Matcher passed =
        Pattern.compile("demo agent passed in ([0-9.]+) s: 2 SIGKILLs, 5 worker processes")
            .matcher(r.out());
    assertThat(passed.find()).as(r.out()).isTrue();
    assertThat(Double.parseDouble(passed.group(1))).isLessThan(60);
    noKeyMaterialIn(r.all());
  }

  /** The demo's checkpoint key and approver seed never appear in its output. */
  private static void noKeyMaterialIn(String output) throws IOException {
    Matcher m = Pattern.compile("files kept in (\\S+)").matcher(output);
    assertThat(m.find()).as("--keep names the directory").isTrue();
    Path kept = Path.of(m.group(1));
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    try (Stream<Path> s = Files.list(kept.resolve("keys"))) {
      s.forEach(p -> secrets.put(p.getFileName().toString(), read(p)));
    }
    assertThat(secrets).hasSize(2);
    assertThat(LeakScan.of(secrets).check("demo agent output", output).findings()).isEmpty();
    try (Stream<Path> s = Files.walk(kept)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void helpNamesTheAgentDemo() throws IOException {
    ProcessCli cli = new ProcessCli(Files.createDirectories(dir.resolve("help")));
    ProcessCli.Result r = cli.run("demo", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("agent");
  }
}
