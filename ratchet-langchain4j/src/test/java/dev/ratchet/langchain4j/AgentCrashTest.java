package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The durable agent under real SIGKILLs (issue 18, SPEC D25): a child JVM runs the agent with the
 * scripted ledger model on a SQLite store against the reference ledger service (the external
 * system, in this JVM), is killed with SIGKILL in one window of the loop, and a second JVM resumes.
 * The ledger's own rows show each effect happened once; the model's call-count file shows no
 * decided response was asked again (a crash before the intent commit may ask once more).
 */
class AgentCrashTest {
  private static final long LINE_TIMEOUT_MS = 120_000;

  @TempDir Path dir;
  private ReferenceService ledger;
  private int killedWith;
  private List<String> resumed = List.of();

  @BeforeEach
  void startLedger() {
    ledger = ReferenceService.start(dir.resolve("ledger.db"), 0);
  }

  @AfterEach
  void stopLedger() {
    ledger.close();
  }

  @ParameterizedTest(name = "SIGKILL at {0}")
  @CsvSource({
    // window: after the model answered, before the intent commit (one repeated call allowed)
    "BEFORE_PROPOSAL, 2, 0",
    // window: after the intent commit
    "AFTER_INTENT_COMMIT, 1, 0",
    // window: between the two tool calls of one response (the first one's receipt is committed)
    "AFTER_RECEIPT_COMMIT, 1, 1",
    // window: inside the adapter, after the external effect
    "ADAPTER_AFTER_EXTERNAL_COMMIT, 1, 1",
    // window: before the receipt commit
    "BEFORE_RECEIPT_COMMIT, 1, 1"
  })
  void aKilledAgentResumesWithEachEffectOnceAndNoDecidedStepAskedAgain(
      String point, int orderCalls, int ordersAtKill) throws Exception {
    String account = "acct-" + point.toLowerCase(java.util.Locale.ROOT);
    crashThenResume(account, point, false);

    assertThat(exactlyOnceProblems(account)).isEmpty();
    assertThat(calls("order")).as("model calls for the ordering response").isEqualTo(orderCalls);
    assertThat(calls("check")).isEqualTo(1);
    assertThat(calls("finish")).isEqualTo(1);
    assertThat(killedWith).as("orders in the ledger when the worker died").isEqualTo(ordersAtKill);
  }

  /**
   * The canary: its keys differ from the runtime's, so the recovering worker finds no receipt under
   * the key it minted for the effect the killed worker made. The runtime fails closed (the run
   * freezes for review instead of ordering again), and the exactly-once check reports it.
   */
  @Test
  void theKeyChangingCanaryMakesTheExactlyOnceCheckFail() throws Exception {
    String account = "acct-canary";
    crashThenResume(account, "ADAPTER_AFTER_EXTERNAL_COMMIT", true);
    assertThat(exactlyOnceProblems(account)).isNotEmpty();
  }

  /**
   * The exactly-once check: the ledger holds each of the two orders exactly once, and the resumed
   * run completed (a run frozen for review has not shown its effects happened once).
   */
  private List<String> exactlyOnceProblems(String account) {
    List<String> problems = new ArrayList<>();
    if (!skus(account).equals(List.of("sku-1", "sku-2"))) {
      problems.add("the ledger holds orders " + skus(account));
    }
    if (!resumed.contains(AgentChild.ENDED + "completed ENDED")) {
      problems.add("the resumed run did not complete: " + resumed);
    }
    return problems;
  }

  private void crashThenResume(String account, String point, boolean canary) throws Exception {
    ChildJvm first = child(account, point, canary, 1);
    String line = waitFor(first, AgentChild.CRASH);
    first.kill();
    assertThat(line).as("child 1 output %s", first.seen()).isEqualTo(AgentChild.CRASH + point);
    killedWith = skus(account).size();

    ChildJvm second = child(account, "none", canary, 2);
    String ended = waitFor(second, AgentChild.ENDED);
    assertThat(second.awaitExit(LINE_TIMEOUT_MS)).isTrue();
    assertThat(ended).as("child 2 output %s", second.seen()).startsWith(AgentChild.ENDED);
    resumed = List.copyOf(second.seen());
    assertThat(second.exitCode()).as("child 2 output %s", resumed).isZero();
  }

  private ChildJvm child(String account, String point, boolean canary, int attempt)
      throws Exception {
    List<String> cmd =
        ChildJvm.command(
            ChildJvm.FAST_START,
            System.getProperty("java.class.path"),
            AgentChild.class.getName(),
            List.of(
                dir.toString(),
                ledger.uri().toString(),
                account,
                point,
                Boolean.toString(canary),
                Integer.toString(attempt)));
    return ChildJvm.start(new ProcessBuilder(cmd).redirectErrorStream(true));
  }

  /** The first line starting with {@code prefix}, or the last line read when the output ends. */
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

  private List<String> skus(String account) {
    List<String> skus = new ArrayList<>();
    for (JsonObject o : ledger.orders()) {
      if (o.get("account").orElseThrow().equals(new JsonString(account))) {
        skus.add(((JsonString) o.get("sku").orElseThrow()).value());
      }
    }
    return skus;
  }

  private int calls(String decision) throws Exception {
    Path file = dir.resolve("calls");
    List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
    return Collections.frequency(lines, decision);
  }
}
