package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.InboxItem;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 42 (Must show) for migration: a migration of a paused run is refused with a clear reason
 * when unsigned (another signature in place of the operator's), signed by an untrusted key, bound
 * to another run, or widening permissions without an approval-required path; nothing changes — the
 * task and its digest, phase, cursor and stop reason stay, and only the item's nonce and one {@code
 * migration_rejected} event are committed, once.
 */
class MigrateRefusalsTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(143);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "unsigned, bad_signature",
    "untrusted, untrusted_signer",
    "other_run, wrong_binding",
    "widening, not_allowed"
  })
  void aRefusedMigrationChangesNothing(String how, String reason) {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.ratchet("w1").start(task, "run-2", f.workspace()).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-0");
    RunState before;
    int traced;
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      before = run.state();
      traced = run.trace().size();
    }
    assertThat(before.phase()).isEqualTo(Phase.PAUSED);

    TaskSpec to = how.equals("widening") ? grownBudget() : narrower();
    SigningKey signer = how.equals("untrusted") ? f.approverKey : f.operatorKey;
    String boundTo = how.equals("other_run") ? "run-2" : "run-1";
    SignedEnvelope env = SignedEnvelope.sign(decision(boundTo, to, "x-1").toJson(), signer);
    if (how.equals("unsigned")) {
      SignedEnvelope other =
          SignedEnvelope.sign(decision(boundTo, to, "x-2").toJson(), f.operatorKey);
      env = new SignedEnvelope(env.payload(), env.keyId(), other.signatureEd25519());
    }
    f.deliverUnchecked(task.taskId(), "run-1", "x-1", InboxItem.Kind.MIGRATE, env);

    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      RunState after = run.state();
      assertThat(after.taskFingerprint()).as("task digest").isEqualTo(task.fingerprint());
      assertThat(after.taskVersion()).isEqualTo(before.taskVersion());
      assertThat(after.policyVersion()).isEqualTo(before.policyVersion());
      assertThat(after.phase()).isEqualTo(before.phase());
      assertThat(after.cursor()).isEqualTo(before.cursor());
      assertThat(after.stopReason()).isEqualTo(before.stopReason());
      assertThat(run.task()).isEqualTo(task);
      List<TraceEvent> trace = run.trace();
      assertThat(trace).as("one refusal event, nothing else").hasSize(traced + 1);
      TraceEvent last = trace.get(trace.size() - 1);
      assertThat(last.outcome().wireName()).isEqualTo("migration_rejected");
      assertThat(last.detail().toString()).contains(reason).contains("x-1");
      if (how.equals("widening")) {
        assertThat(last.detail().toString()).contains("budgets.max_steps: grows from 100 to 200");
      }
    }
    try (Run run = f.ratchet("w4").resume(task, "run-1", ws)) {
      assertThat(run.trace()).as("refused once").hasSize(traced + 1);
      assertThat(run.state().taskFingerprint()).isEqualTo(task.fingerprint());
    }
  }

  /** A narrowing the run would accept: the append kind dropped. */
  private TaskSpec narrower() {
    return with("v2", Set.of("read_file", "write_file", "run_tests"), task.budgets());
  }

  /** More steps while reads and tests run without approval: a widening. */
  private TaskSpec grownBudget() {
    return with(
        "v2",
        task.actionKinds(),
        new Budgets(500, 200, task.budgets().maxWallTimeMs(), task.budgets().maxCost()));
  }

  private TaskSpec with(String version, Set<String> kinds, Budgets budgets) {
    return new TaskSpec(
        task.taskId(),
        version,
        task.policyId(),
        task.policyVersion(),
        task.adapter(),
        task.permissions(),
        kinds,
        task.targets(),
        task.approvalRequired(),
        budgets,
        task.environment(),
        task.verifier());
  }

  private MigrateDecision decision(String runId, TaskSpec to, String nonce) {
    return new MigrateDecision(
        f.operatorKey.label(),
        DecisionBinding.run(task.taskId(), runId, task.policyId(), task.policyVersion()),
        task.fingerprint(),
        to.fingerprint(),
        to,
        TaskDiff.of(task, to).toJson(),
        null,
        "x",
        nonce);
  }
}
