package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRun;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D22 on a real store: a steady write step without approval is exactly one checkpoint commit
 * on SQLite (the receipt rides on the next intent's commit), counted by a wrapper around the store.
 */
class SqliteCommitsPerWriteStepTest {
  @TempDir Path dir;

  /** Forwards to the SQLite store and counts its commits. */
  static final class CountingCommits extends ForwardingCheckpointStore {
    long commits;

    CountingCommits(CheckpointStore inner) {
      super(inner);
    }

    @Override
    public CommitResult commit(CommitRequest request) {
      commits++;
      return delegate.commit(request);
    }
  }

  @Test
  void aSteadyWriteStepWithoutApprovalIsOneCommitOnSqlite() {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore sqlite = TestStores.single(dir, TestStores.options(clock))) {
      CountingCommits store = new CountingCommits(sqlite);
      RuntimeFixture f = new RuntimeFixture(91, clock, store, sqlite);
      TaskSpec task = f.task(new Budgets(1_000, 1_000, 86_400_000L, 1_000_000));
      InMemoryWorkspace ws = f.workspace();
      int steps = 100;
      try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
        write(run, 0);
        long before = store.commits;
        for (int i = 1; i <= steps; i++) {
          write(run, i);
        }
        double perStep = (double) (store.commits - before) / steps;
        assertThat(String.format(Locale.ROOT, "%.2f", perStep)).isEqualTo("1.00");
      }
      StoredRun stored = sqlite.load(task.taskId(), "run-1").orElseThrow();
      assertThat(stored.head(RecordSet.RECEIPTS).count()).isEqualTo(steps + 1L);
      assertThat(ws.ledger()).hasSize(steps + 1);
    }
  }

  private static void write(Run run, int i) {
    run.apply(
        run.action(
            "w" + i,
            "write_file",
            JsonObject.builder()
                .put("path", "app.py")
                .put("content", "print(" + i + ")\n")
                .build()));
  }
}
