package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D37 on SQLite: a signed migration delivered as inbox kind MIGRATE is applied under the lease, and
 * the migrated task is kept in the run's nonces set under {@code task:<digest>}, so a later resume
 * with the original task runs under the new one.
 */
class SqliteMigrateTest {
  @TempDir Path dir;

  @Test
  void aPausedRunIsMigratedOnSqliteAndResumesUnderTheNewTask() {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store = TestStores.single(dir, TestStores.options(clock))) {
      RuntimeFixture f = new RuntimeFixture(7, clock, store, store);
      TaskSpec v1 = f.task("write_file");
      InMemoryWorkspace ws = f.workspace();
      f.ratchet("w1").start(v1, "run-1", ws).close();
      f.deliverPause(PauseDecision.Kind.PAUSE, v1, "run-1", f.operatorKey, "pause-1");
      f.ratchet("w2").resume(v1, "run-1", ws).close();
      Budgets b = v1.budgets();
      TaskSpec v2 =
          new TaskSpec(
              v1.taskId(),
              "v2",
              v1.policyId(),
              "p2",
              v1.adapter(),
              v1.permissions(),
              v1.actionKinds(),
              v1.targets(),
              v1.approvalRequired(),
              new Budgets(b.maxProposals(), b.maxSteps() - 1, b.maxWallTimeMs(), b.maxCost()),
              v1.environment(),
              v1.verifier());
      MigrateDecision d =
          new MigrateDecision(
              f.operatorKey.label(),
              DecisionBinding.run(v1.taskId(), "run-1", v1.policyId(), v1.policyVersion()),
              v1.fingerprint(),
              v2.fingerprint(),
              v2,
              TaskDiff.of(v1, v2).toJson(),
              null,
              "fixed",
              "m-1");
      f.deliverUnchecked(SignedDecision.sign(d, f.operatorKey));
      try (Run run = f.ratchet("w3").resume(v1, "run-1", ws)) {
        assertThat(run.task()).isEqualTo(v2);
      }
      try (Run run = f.ratchet("w4").resume(v1, "run-1", ws)) {
        assertThat(run.task()).as("found again by its signed digest").isEqualTo(v2);
        assertThat(run.state().policyVersion()).isEqualTo("p2");
      }
    }
  }
}
