package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Decision;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * D37 task versions: a run keeps the task and policy it started with (a changed task file does not
 * change it; a new version applies to new runs); an operator's signed migration moves a paused,
 * frozen or approval-waiting run to a new version in one commit traced {@code task_migrated} with
 * both digests, after which the run runs under the new task whichever task its host resumes it
 * with; a running run is not migrated; the widening rule refuses a kind added without approval.
 */
class MigrateTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(142);
  private final InMemoryWorkspace ws = f.workspace();

  /** Version 1: reads, writes, appends, tests; writes and appends need an approval. */
  private final TaskSpec v1 =
      variant(
          "v1",
          "p1",
          Set.of("read_file", "write_file", "append_file", "run_tests"),
          Set.of("write_file", "append_file"),
          f.task().budgets());

  @Test
  void aChangedTaskFileDoesNotChangeARunningRunAndANewVersionAppliesToNewRuns() {
    f.ratchet("w1").start(v1, "run-1", ws).close();
    TaskSpec edited = variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), v1.budgets());

    assertThatThrownBy(() -> f.ratchet("w2").resume(edited, "run-1", ws))
        .isInstanceOf(RatchetException.class)
        .matches(e -> ((RatchetException) e).code() == ErrorCode.CHECKPOINT)
        .hasMessageContaining("fingerprint");
    try (Run run = f.ratchet("w3").resume(v1, "run-1", ws)) {
      assertThat(run.state().taskVersion()).isEqualTo("v1");
      assertThat(run.task()).isEqualTo(v1);
      run.apply(run.action("a1", "read_file", read("app.py")));
    }
    try (Run fresh = f.ratchet("w4").start(edited, "run-2", f.workspace())) {
      assertThat(fresh.state().taskVersion())
          .as("a new run starts on the new version")
          .isEqualTo("v2");
    }
  }

  @Test
  void aPausedRunMigratesToANarrowerTaskAndGoesOnUnderIt() {
    f.ratchet("w1").start(v1, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, v1, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w2").resume(v1, "run-1", ws).close();
    TaskSpec v2 =
        variant(
            "v2",
            "p2",
            Set.of("read_file", "write_file", "run_tests"),
            Set.of("write_file"),
            new Budgets(400, 80, 86_400_000L, 1_000_000));
    SignedDecision signed = deliver(migrate("run-1", v1, v2, "m-1"));
    assertThat(signed.decision()).isInstanceOf(MigrateDecision.class);

    try (Run run = f.ratchet("w3").resume(v1, "run-1", ws)) {
      assertThat(run.state().phase())
          .as("migrated while paused, still paused")
          .isEqualTo(Phase.PAUSED);
      assertThat(run.state().taskVersion()).isEqualTo("v2");
      assertThat(run.state().policyVersion()).isEqualTo("p2");
      assertThat(run.state().taskFingerprint()).isEqualTo(v2.fingerprint());
      assertThat(run.task()).isEqualTo(v2);
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("task_migrated");
      assertThat(text(last, "from_task_digest")).isEqualTo(v1.fingerprint());
      assertThat(text(last, "to_task_digest")).isEqualTo(v2.fingerprint());
      assertThat(last.detail().get("difference").orElseThrow().toString())
          .contains("append_file")
          .contains("max_steps");
    }
    // The unpause is bound to the policy the run now runs under.
    f.deliverPause(PauseDecision.Kind.UNPAUSE, v2, "run-1", f.operatorKey, "unpause-1");
    try (Run run = f.ratchet("w4").resume(v1, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.task()).as("resumed with v1, runs under v2").isEqualTo(v2);
      assertThatThrownBy(
              () -> run.propose(run.action("a1", "append_file", write("log.txt", "x\n"))))
          .as("the kind v2 dropped")
          .isInstanceOf(RatchetException.class);
      run.apply(run.action("a2", "read_file", read("app.py")));
      assertThat(run.state().cursor()).isEqualTo(1);
    }
    try (Run run = f.ratchet("w5").resume(v2, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.NOTHING);
      assertThat(run.state().taskVersion()).isEqualTo("v2");
    }
  }

  @Test
  void aWriteWaitingForItsApprovalIsMigratedAndStillWaits() {
    Run first = f.ratchet("w1").start(v1, "run-1", ws);
    first.propose(first.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    RunState before = first.state();
    first.close();
    TaskSpec v2 =
        variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), smaller(v1.budgets()));
    deliver(migrate("run-1", v1, v2, "m-1"));
    try (Run run = f.ratchet("w2").resume(v1, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.AWAITING_APPROVAL);
      assertThat(run.state().taskVersion()).isEqualTo("v2");
      assertThat(run.state().pending()).isEqualTo(before.pending());
    }
  }

  @Test
  void aFrozenRunIsMigratedAndStaysFrozenForItsReviewer() {
    Run first = f.ratchet("w1").start(v1, "run-1", ws);
    first.propose(first.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    first.close();
    f.deliverCancel(v1, "run-1", f.operatorKey, "cancel-1");
    f.ratchet("w2").resume(v1, "run-1", ws).close(); // a write pending: frozen for a reviewer
    TaskSpec v2 =
        variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), smaller(v1.budgets()));
    deliver(migrate("run-1", v1, v2, "m-1"));
    try (Run run = f.ratchet("w3").resume(v1, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
      assertThat(run.state().review()).isNotNull();
      assertThat(run.task()).isEqualTo(v2);
      assertThat(last(run.trace()).outcome().wireName()).isEqualTo("task_migrated");
    }
  }

  @Test
  void aRunningRunIsNotMigrated() {
    f.ratchet("w1").start(v1, "run-1", ws).close();
    TaskSpec v2 =
        variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), smaller(v1.budgets()));
    deliver(migrate("run-1", v1, v2, "m-1"));
    try (Run run = f.ratchet("w2").resume(v1, "run-1", ws)) {
      assertThat(run.state().taskVersion()).isEqualTo("v1");
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("migration_rejected");
      assertThat(last.detail().toString()).contains("not_allowed").contains("is running");
    }
  }

  @Test
  void pauseMigrateUnpauseDeliveredTogetherApplyInThatOrder() {
    f.ratchet("w1").start(v1, "run-1", ws).close();
    TaskSpec v2 =
        variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), smaller(v1.budgets()));
    f.deliverPause(PauseDecision.Kind.PAUSE, v1, "run-1", f.operatorKey, "pause-1");
    deliver(migrate("run-1", v1, v2, "m-1"));
    f.deliverPause(PauseDecision.Kind.UNPAUSE, v1, "run-1", f.operatorKey, "unpause-1");
    try (Run run = f.ratchet("w2").resume(v1, "run-1", ws)) {
      List<String> outcomes = run.trace().stream().map(e -> e.outcome().wireName()).toList();
      assertThat(outcomes)
          .containsSubsequence("operator_paused", "task_migrated", "operator_unpaused");
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.task()).isEqualTo(v2);
    }
  }

  @Test
  void aKindAddedWithoutApprovalIsRefusedAndWithApprovalIsApplied() {
    TaskSpec base =
        variant(
            "v1",
            "p1",
            Set.of("read_file", "write_file", "run_tests"),
            Set.of("write_file"),
            v1.budgets());
    f.ratchet("w1").start(base, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, base, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w2").resume(base, "run-1", ws).close();
    TaskSpec ungated = variant("v2", "p1", v1.actionKinds(), Set.of("write_file"), v1.budgets());
    TaskSpec gated = variant("v3", "p1", v1.actionKinds(), v1.approvalRequired(), v1.budgets());
    assertThatThrownBy(() -> MigrateDecision.check(paused(base), base, ungated, null))
        .as("the CLI refuses before signing")
        .hasMessageContaining("action_kinds: 'append_file' is added");

    deliver(migrate("run-1", base, ungated, "m-1"));
    try (Run run = f.ratchet("w3").resume(base, "run-1", ws)) {
      assertThat(run.task()).isEqualTo(base);
      assertThat(last(run.trace()).detail().toString())
          .contains("not_allowed")
          .contains("append_file");
    }
    deliver(migrate("run-1", base, gated, "m-2"));
    try (Run run = f.ratchet("w4").resume(base, "run-1", ws)) {
      assertThat(run.task()).isEqualTo(gated);
    }
  }

  @Test
  void aSignedDifferenceThatIsNotTheRealOneIsRefused() {
    f.ratchet("w1").start(v1, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, v1, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w2").resume(v1, "run-1", ws).close();
    TaskSpec v2 =
        variant("v2", "p1", v1.actionKinds(), v1.approvalRequired(), smaller(v1.budgets()));
    MigrateDecision real = migrate("run-1", v1, v2, "m-1");
    MigrateDecision shown =
        new MigrateDecision(
            real.operatorId(),
            real.binding(),
            real.fromTaskDigest(),
            real.toTaskDigest(),
            real.toTask(),
            JsonObject.builder().put("nothing", "changes").build(),
            null,
            real.reason(),
            real.nonce());
    deliver(shown);
    try (Run run = f.ratchet("w3").resume(v1, "run-1", ws)) {
      assertThat(run.task()).isEqualTo(v1);
      assertThat(last(run.trace()).detail().toString()).contains("migrate.difference");
    }
    assertThat(Decision.fromJson(real.toJson(), "p")).isEqualTo(real);
  }

  private RunState paused(TaskSpec task) {
    try (Run run = f.ratchet("wx").resume(task, "run-1", ws)) {
      return run.state();
    }
  }

  private MigrateDecision migrate(String runId, TaskSpec from, TaskSpec to, String nonce) {
    return new MigrateDecision(
        f.operatorKey.label(),
        dev.ratchet.model.DecisionBinding.run(
            from.taskId(), runId, from.policyId(), from.policyVersion()),
        from.fingerprint(),
        to.fingerprint(),
        to,
        dev.ratchet.model.TaskDiff.of(from, to).toJson(),
        null,
        "fixed task file",
        nonce);
  }

  private SignedDecision deliver(MigrateDecision d) {
    SignedDecision signed = SignedDecision.sign(d, f.operatorKey);
    f.deliverUnchecked(signed);
    return signed;
  }

  private TaskSpec variant(
      String version, String policy, Set<String> kinds, Set<String> approvals, Budgets budgets) {
    TaskSpec t = f.task();
    return new TaskSpec(
        t.taskId(),
        version,
        t.policyId(),
        policy,
        t.adapter(),
        t.permissions(),
        kinds,
        t.targets(),
        approvals,
        budgets,
        t.environment(),
        t.verifier());
  }

  private static Budgets smaller(Budgets b) {
    return new Budgets(b.maxProposals() - 1, b.maxSteps() - 1, b.maxWallTimeMs(), b.maxCost());
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }

  private static String text(TraceEvent e, String key) {
    return ((dev.ratchet.json.JsonString) e.detail().get(key).orElseThrow()).value();
  }
}
