package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Cause;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.KeyChangingAdapter;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SimulatedCrash;
import dev.ratchet.worker.DriveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The durable loop in-process (SPEC D25): the scripted model repairs app.py and runs the tests; a
 * crash in each window of the loop is recovered by a fresh agent that never asks the model again
 * for a decided step, and every effect happens once in the workspace's own ledger.
 */
class DurableAgentTest {
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;
  private ScriptedChatModel model;

  @BeforeEach
  void fixture() {
    f = RuntimeFixture.inMemory(7);
    task = f.task();
    ws = f.workspace();
    model = new ScriptedChatModel();
  }

  private DurableAgent agent() {
    return DurableAgent.builder(model).goal("app.py prints the wrong greeting: fix it").build();
  }

  @Test
  void theAgentRepairsTheWorkspaceAndFinishesWithOneCommittedCausePerResponse() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      DriveResult r = agent().drive(run, task);
      assertThat(r.kind()).isEqualTo(DriveResult.Kind.ENDED);
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(ws.files().get("app.py")).isEqualTo(ScriptedChatModel.FIXED);
      assertThat(ws.ledger()).hasSize(1);
      assertThat(effectProblems(run)).isEmpty();
      assertThat(run.causes()).extracting(Cause::causeId).containsExactly("turn-1", "turn-2");
      assertThat(run.state().usage().cost()).isEqualTo(240);
      assertThat(model.calls("repair")).isEqualTo(1);
      assertThat(model.calls("finish")).isEqualTo(1);
      assertThat(model.toolsSeen()).contains("write_file", "run_tests", "read_file");
      // system, user, ai(2 calls), 2 tool results, ai(done)
      assertThat(run.memory()).hasSize(6);
    }
  }

  @Test
  void theModelResponseIsCommittedWithTheFirstIntentItCauses() {
    CrashPlan plan = new CrashPlan();
    Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
    plan.arm(CrashPoint.AFTER_INTENT_COMMIT);
    assertThatThrownBy(() -> agent().drive(run, task)).isInstanceOf(SimulatedCrash.class);
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(again.causes()).extracting(Cause::causeId).containsExactly("turn-1");
      assertThat(again.state().usage().cost()).isEqualTo(120);
      assertThat(again.memory())
          .extracting(m -> m.get("role").orElseThrow().toString())
          .containsExactly("\"system\"", "\"user\"", "\"ai\"");
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CrashPoint.class,
      names = {
        "AFTER_INTENT_COMMIT",
        "ADAPTER_AFTER_EXTERNAL_COMMIT",
        "BEFORE_RECEIPT_COMMIT",
        "AFTER_RECEIPT_COMMIT"
      })
  void aCrashAfterTheDecisionIsCommittedNeverAsksTheModelAgainAndEffectsHappenOnce(
      CrashPoint point) {
    CrashPlan plan = new CrashPlan();
    ws.crashSeam(plan);
    Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
    plan.arm(point);
    assertThatThrownBy(() -> agent().drive(run, task)).isInstanceOf(SimulatedCrash.class);
    assertThat(plan.fired()).contains(point);
    plan.disarm();

    finishAfterCrash();
    assertThat(model.calls("repair")).as("the decided response is never asked again").isEqualTo(1);
  }

  @Test
  void aCrashBeforeTheIntentCommitMayAskTheModelOnceMore() {
    CrashPlan plan = new CrashPlan();
    Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
    plan.arm(CrashPoint.BEFORE_PROPOSAL);
    assertThatThrownBy(() -> agent().drive(run, task)).isInstanceOf(SimulatedCrash.class);
    plan.disarm();
    finishAfterCrash();
    assertThat(model.calls("repair")).isEqualTo(2);
  }

  @Test
  void aWriteNeedingApprovalWaitsWithoutAThreadAndContinuesOnceApproved() {
    TaskSpec gated = f.task("write_file");
    try (Run run = f.ratchet("w1").start(gated, "run-1", ws)) {
      DriveResult r = agent().drive(run, gated);
      assertThat(r.kind()).isEqualTo(DriveResult.Kind.WAITING);
      assertThat(ws.ledger()).isEmpty();
      f.approvePending(run, gated, Duration.ofMinutes(10));
    }
    try (Run again = f.ratchet("w2").resume(gated, "run-1", ws)) {
      DriveResult r = agent().drive(again, gated);
      assertThat(r.kind()).isEqualTo(DriveResult.Kind.ENDED);
      assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
    }
    assertThat(ws.ledger()).hasSize(1);
    assertThat(model.calls("repair")).isEqualTo(1);
  }

  @Test
  void theKeyChangingCanaryMakesTheExactlyOnceCheckFail() {
    CrashPlan plan = new CrashPlan();
    ws.crashSeam(plan);
    EnvironmentAdapter canary = new KeyChangingAdapter(ws);
    Run run = f.ratchet("w1", plan).start(task, "run-1", canary);
    plan.arm(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    assertThatThrownBy(() -> agent().drive(run, task)).isInstanceOf(SimulatedCrash.class);
    plan.disarm();
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run again = f.ratchet("w2").resume(task, "run-1", new KeyChangingAdapter(ws))) {
      agent().drive(again, task);
      assertThat(effectProblems(again)).isNotEmpty();
    }
  }

  private void finishAfterCrash() {
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      DriveResult r = agent().drive(again, task);
      assertThat(r.kind()).isEqualTo(DriveResult.Kind.ENDED);
      assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(effectProblems(again)).isEmpty();
    }
    assertThat(ws.files().get("app.py")).isEqualTo(ScriptedChatModel.FIXED);
    assertThat(model.calls("finish")).isEqualTo(1);
  }

  /**
   * The exactly-once check, in the workspace's own ledger: every key the run minted took effect
   * exactly once under that key, and nothing else took effect.
   */
  private List<String> effectProblems(Run run) {
    List<String> problems = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (TraceEvent e : run.trace()) {
      if (e.outcome().wireName().equals("accepted_pending")) {
        String key = ((JsonString) e.detail().get("idempotency_key").orElseThrow()).value();
        keys.add(key);
        if (ws.effects(key) != 1) {
          problems.add(e.actionId() + ": " + ws.effects(key) + " effects under its key");
        }
      }
    }
    for (String k : ws.ledger()) {
      if (!keys.contains(k)) {
        problems.add("an effect under a key the run never minted: " + k);
      }
    }
    return problems;
  }
}
