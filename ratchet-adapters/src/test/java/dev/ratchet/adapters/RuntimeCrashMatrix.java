package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.KeyChangingAdapter;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SimulatedCrash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * End-to-end crash matrix of the runtime (in-memory store) driving a real adapter: every crash
 * point × every write of a three-write plan × {no approval, approval required, approval expired by
 * recovery}. Each cell crashes at its point, abandons the runtime and the adapter instance (as a
 * dead process would), reopens the environment, resumes in a fresh runtime and finishes. The
 * exactly-once check counts non-idempotent effects in the external system's own ledger (appended
 * lines, orders) and must fail with the key-changing canary (D18).
 */
public abstract class RuntimeCrashMatrix {
  /** One agent step: a kind and its arguments. */
  public record Step(String kind, JsonObject arguments) {}

  public enum Approvals {
    NONE,
    REQUIRED,
    EXPIRED
  }

  /** The task of a cell: adapter namespace, permissions, kinds, targets and verifier. */
  protected abstract TaskSpec task(long cell, Set<String> approvalRequired);

  /**
   * The runtime's store and keys for one cell: in memory unless a subclass puts a store under it.
   */
  protected RuntimeFixture fixture(long cell) {
    return RuntimeFixture.inMemory(cell);
  }

  /** The three writes, in plan order. */
  protected abstract List<Step> writes(long cell);

  protected abstract Step verification(long cell);

  /** Opens a fresh environment for a cell, with {@code seam} inside the adapter. */
  protected abstract EnvironmentAdapter openEnvironment(
      long cell, RuntimeFixture f, CrashSeam seam);

  /** A new adapter instance on the same environment, as a restarted process would open it. */
  protected abstract EnvironmentAdapter reopenEnvironment(
      long cell, RuntimeFixture f, CrashSeam seam);

  /** What the external ledger shows wrong for a cell (empty when each effect happened once). */
  protected abstract List<String> ledgerProblems(long cell);

  protected abstract void closeEnvironment();

  protected static Budgets budgets() {
    return new Budgets(500, 100, 86_400_000L, 1_000_000);
  }

  @Test
  void everyCrashPointInEveryWriteRecoversWithEachEffectExactlyOnce() {
    // The adapters' writes are receipted: the windows of an unreceipted write (D23) never open;
    // nothing here forks (a fork's windows, D37, are rows of CrashMatrixContract), and a one-run
    // cell never forms a batched commit (its windows: BatchedCommitKillTest, ADR 0141).
    Set<CrashPoint> points =
        EnumSet.complementOf(
            EnumSet.of(
                CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK,
                CrashPoint.AFTER_EFFECT_STARTED_COMMIT,
                CrashPoint.UNRECEIPTED_RESULT_HELD,
                CrashPoint.FORK_BEFORE_COMMIT,
                CrashPoint.FORK_AFTER_COMMIT,
                CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT,
                CrashPoint.STORE_BEFORE_BATCHED_COMMIT,
                CrashPoint.STORE_AFTER_BATCHED_COMMIT));
    List<String> failures = new ArrayList<>();
    Set<CrashPoint> injected = EnumSet.noneOf(CrashPoint.class);
    long cell = 1;
    for (CrashPoint point : points) {
      for (int write = 0; write < 3; write++) {
        for (Approvals mode : Approvals.values()) {
          if (point == CrashPoint.AFTER_APPROVAL_COMMIT && mode == Approvals.NONE) {
            continue;
          }
          String name = point + "/write" + (write + 1) + "/" + mode;
          List<String> problems = new ArrayList<>();
          if (runCell(cell++, point, write, mode, false, problems)) {
            injected.add(point);
          } else {
            problems.add("the crash was never injected");
          }
          problems.forEach(p -> failures.add(name + ": " + p));
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(injected).isEqualTo(points);
  }

  @Test
  void theCanaryThatChangesKeysMakesTheExactlyOnceCheckFail() {
    List<String> problems = new ArrayList<>();
    runCell(10_000, CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT, 1, Approvals.NONE, true, problems);
    // The check that fails is the ledger's own count, not only the run's phase.
    assertThat(ledgerProblems(10_000)).isNotEmpty();
    assertThat(problems).containsAll(ledgerProblems(10_000));
  }

  @Test
  void aRunWithoutCrashesCompletesWithEachEffectOnce() {
    List<String> problems = new ArrayList<>();
    runCell(20_000, null, -1, Approvals.REQUIRED, false, problems);
    assertThat(problems).isEmpty();
  }

  /** Returns whether the crash fired; appends every broken expectation to {@code problems}. */
  protected boolean runCell(
      long cell,
      CrashPoint point,
      int write,
      Approvals mode,
      boolean canary,
      List<String> problems) {
    RuntimeFixture f = fixture(cell);
    TaskSpec task = task(cell, mode == Approvals.NONE ? Set.of() : Set.copyOf(writeKinds(cell)));
    CrashPlan plan = new CrashPlan();
    String runId = "run-" + cell;
    boolean crashed = false;
    try {
      EnvironmentAdapter real = openEnvironment(cell, f, plan);
      EnvironmentAdapter adapter = canary ? new KeyChangingAdapter(real) : real;
      Run run = f.ratchet("worker-1", plan).start(task, runId, adapter);
      try {
        drive(f, task, run, mode, plan, point, write, cell);
      } catch (SimulatedCrash c) {
        crashed = true;
      } catch (RuntimeException e) {
        problems.add("before the crash: " + e);
      }
      plan.disarm();
      f.clock.advance(mode == Approvals.EXPIRED ? Duration.ofHours(2) : Duration.ofMinutes(1));
      EnvironmentAdapter reopened = reopenEnvironment(cell, f, plan);
      EnvironmentAdapter again = canary ? new KeyChangingAdapter(reopened) : reopened;
      try (Run recovered = f.ratchet("worker-2", plan).resume(task, runId, again)) {
        drive(f, task, recovered, mode, plan, null, -1, cell);
        if (recovered.state().phase() != Phase.COMPLETED) {
          problems.add(
              "run ended "
                  + recovered.state().phase()
                  + " ("
                  + recovered.state().stopReason()
                  + ")");
        }
      } catch (RuntimeException e) {
        problems.add("recovery: " + e);
      }
      problems.addAll(ledgerProblems(cell));
    } finally {
      closeEnvironment();
    }
    return crashed;
  }

  private List<String> writeKinds(long cell) {
    return writes(cell).stream().map(Step::kind).distinct().toList();
  }

  /** A deterministic agent driven by the plan cursor; reconciles any pending write first. */
  protected void drive(
      RuntimeFixture f,
      TaskSpec task,
      Run run,
      Approvals mode,
      CrashPlan plan,
      CrashPoint point,
      int crashAtWrite,
      long cell) {
    List<Step> writes = writes(cell);
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 50) {
      if (run.state().pending() != null) {
        approveIfNeeded(f, task, run, mode);
        run.reconcile();
        continue;
      }
      int cursor = (int) run.state().cursor();
      String id = "step-" + cursor + "-" + run.state().usage().proposals();
      if (cursor < writes.size()) {
        if (cursor == crashAtWrite) {
          plan.arm(point);
        }
        Step s = writes.get(cursor);
        Proposal p = run.propose(run.action(id, s.kind(), s.arguments()));
        if (p.kind() == Proposal.Kind.PENDING) {
          approveIfNeeded(f, task, run, mode);
          if (run.execute(id).kind() == StepOutcome.Kind.FROZEN) {
            return;
          }
        }
      } else if (cursor == writes.size()) {
        Step v = verification(cell);
        run.apply(run.action(id, v.kind(), v.arguments()));
      } else {
        run.apply(run.action(id, "finish", JsonObject.EMPTY));
      }
    }
  }

  private static void approveIfNeeded(RuntimeFixture f, TaskSpec task, Run run, Approvals mode) {
    if (mode == Approvals.NONE) {
      return;
    }
    var evidence = run.state().pending().approval();
    if (evidence != null
        && Approval.fromJson(evidence.payload(), "approval").expiresAtMs() > f.clock.millis()) {
      return;
    }
    Duration ttl = mode == Approvals.EXPIRED ? Duration.ofMinutes(30) : Duration.ofHours(24);
    f.approvePending(run, task, ttl);
  }
}
