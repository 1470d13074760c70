package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    cli.jvmArgs.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
    ProcessCli.Result r = cli.run("demo", "agent");
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
    try (var left = Files.list(dir.resolve("tmp"))) {
      assertThat(left.filter(p -> p.getFileName().toString().startsWith("ratchet-demo-agent-")))
          .as("a passing demo removes its directory")
          .isEmpty();
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
