package dev.ratchet.agentdemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent demo end to end, as {@code ratchet demo agent} runs it: real worker JVMs, two real
 * SIGKILLs, a signed approval, and a passing verdict only when every count holds.
 */
class AgentDemoTest {
  @TempDir Path dir;

  @Test
  void bothAgentsSurviveTheirSigkillsWithEveryEffectOnceAndNoDecidedStepAskedAgain() {
    StringWriter text = new StringWriter();
    int exit = AgentDemo.run(new PrintWriter(text, true), dir);
    String out = text.toString();
    assertThat(exit).as(out).isZero();
    assertThat(out)
        .contains("SIGKILL at after_intent_commit (exit 137)")
        .contains("SIGKILL at adapter_after_external_commit (exit 137)")
        .contains("signed by alice (Ed25519) and delivered")
        .contains("final state: run repair-run completed")
        .contains("final state: run pay-run completed")
        .contains("demo agent passed")
        .contains("2 SIGKILLs");
    assertThat(out)
        .containsPattern("repair-run +turn-2\\.0 write_file +[0-9a-f]{32} +\\S*executed +1 ")
        .containsPattern("pay-run +turn-1\\.0 create_order +[0-9a-f]{32} +\\S*executed +1 ")
        .containsPattern("pay-run +turn-2\\.0 pay_order +[0-9a-f]{32} +\\S*reconciled +1 ")
        .containsPattern("pay +pay +1\n")
        .doesNotContain("SLF4J");
  }
}
