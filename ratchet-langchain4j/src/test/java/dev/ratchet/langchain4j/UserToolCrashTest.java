package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's own tools under a real SIGKILL inside the tool, after its effect (SPEC D23, ADR 0071):
 * a receipted tool is found again by its key and the run completes with one effect; an unreceipted
 * tool's run freezes {@code uncertain_effect} and the tool never runs again. In both, the model is
 * never asked again for the response that decided the call.
 */
class UserToolCrashTest {
  private static final long LINE_TIMEOUT_MS = 120_000;

  @TempDir Path dir;
  private ReferenceService ledger;

  @BeforeEach
  void startLedger() {
    ledger = ReferenceService.start(dir.resolve("ledger.db"), 0);
  }

  @AfterEach
  void stopLedger() {
    ledger.close();
  }

  @Test
  void aReceiptedToolKilledAfterItsEffectIsReconciledAndRunsOnce() throws Exception {
    String ended = crashThenResume("acct-receipted", "receipted");
    assertThat(ended).startsWith(AgentChild.ENDED + "completed");
    try (Stream<Path> files = Files.list(dir.resolve("effects"))) {
      assertThat(files.filter(p -> !p.toString().endsWith(".tmp")).count()).isEqualTo(1);
    }
    assertThat(calls("decide")).isEqualTo(1);
    assertThat(calls("finish")).isEqualTo(1);
  }

  @Test
  void anUnreceiptedToolKilledInsideFreezesUncertainAndNeverRunsAgain() throws Exception {
    String ended = crashThenResume("acct-unreceipted", "unreceipted");
    assertThat(ended).startsWith(AgentChild.ENDED + "needs_review uncertain_effect");
    assertThat(Files.readAllLines(dir.resolve("deploys"))).containsExactly("deployed");
    assertThat(calls("decide")).isEqualTo(1);
    assertThat(calls("check")).isZero();
  }

  private String crashThenResume(String account, String kind) throws Exception {
    ChildJvm first = child(account, kind, 1);
    String line = waitFor(first, AgentChild.CRASH);
    first.kill();
    assertThat(line).as("child 1 output %s", first.seen()).isEqualTo(AgentChild.CRASH + "inside");
    ChildJvm second = child(account, kind, 2);
    String ended = waitFor(second, AgentChild.ENDED);
    assertThat(second.awaitExit(LINE_TIMEOUT_MS)).isTrue();
    assertThat(second.exitCode()).as("child 2 output %s", second.seen()).isZero();
    return ended;
  }

  private ChildJvm child(String account, String kind, int attempt) throws Exception {
    List<String> cmd =
        ChildJvm.command(
            ChildJvm.FAST_START,
            System.getProperty("java.class.path"),
            UserToolChild.class.getName(),
            List.of(
                dir.toString(), ledger.uri().toString(), account, kind, Integer.toString(attempt)));
    return ChildJvm.start(new ProcessBuilder(cmd).redirectErrorStream(true));
  }

  private static String waitFor(ChildJvm child, String prefix) throws InterruptedException {
    String last = null;
    String line;
    while ((line = child.next(LINE_TIMEOUT_MS)) != null) {
      last = line;
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    return last;
  }

  private int calls(String decision) throws Exception {
    Path file = dir.resolve("calls");
    List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
    return Collections.frequency(lines, decision);
  }
}
