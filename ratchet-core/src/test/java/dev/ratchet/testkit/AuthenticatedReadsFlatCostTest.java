package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * SPEC D20: authenticating what the acting path reads costs the same at 10 and 10,000 records. The
 * test counts store operations and the records they return (never time): a recovery and one lookup
 * (a new action id, looked up before it is burned) read exactly as much at either length.
 */
class AuthenticatedReadsFlatCostTest {

  /** Store calls and records returned by the reads of the growing sets. */
  static final class Counting extends ForwardingCheckpointStore {
    long finds;
    long pages;
    long recordsRead;

    Counting(InMemoryStore inner) {
      super(inner);
    }

    @Override
    public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
      finds++;
      Optional<StoredRecord> r = delegate.find(taskId, runId, set, key);
      recordsRead += r.isPresent() ? 1 : 0;
      return r;
    }

    @Override
    public List<StoredRecord> records(
        String taskId, String runId, RecordSet set, long fromSequence, int limit) {
      pages++;
      List<StoredRecord> r = delegate.records(taskId, runId, set, fromSequence, limit);
      recordsRead += r.size();
      return r;
    }

    List<Long> snapshot() {
      return List.of(finds, pages, recordsRead);
    }
  }

  private record Cost(List<Long> recovery, List<Long> newId, List<Long> lookup) {}

  private static Cost costAt(int steps) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    InMemoryStore mem = new InMemoryStore(clock);
    Counting store = new Counting(mem);
    RuntimeFixture f = new RuntimeFixture(67, clock, store, mem);
    TaskSpec task = f.task(new Budgets(30_000, 20_000, 86_400_000L, 1));
    InMemoryWorkspace ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      for (int i = 1; i <= steps; i++) {
        run.apply(run.action("a" + i, "read_file", read("app.py")));
      }
    }
    assertThat(mem.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 100_000))
        .hasSizeGreaterThan(steps);
    List<Long> before = store.snapshot();
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      List<Long> afterRecovery = store.snapshot();
      run.propose(run.action("new-id", "read_file", read("app.py")));
      List<Long> afterNewId = store.snapshot();
      // A used id is refused by the commit's unique key; only then is the id looked up (ADR 0044).
      assertThatThrownBy(() -> run.propose(run.action("a1", "read_file", read("app.py"))))
          .hasMessageContaining("'a1' was already used");
      List<Long> afterLookup = store.snapshot();
      return new Cost(
          minus(afterRecovery, before),
          minus(afterNewId, afterRecovery),
          minus(afterLookup, afterNewId));
    }
  }

  private static List<Long> minus(List<Long> a, List<Long> b) {
    return List.of(a.get(0) - b.get(0), a.get(1) - b.get(1), a.get(2) - b.get(2));
  }

  @Test
  void recoveryAndALookupReadAsMuchAtTenThousandRecordsAsAtTen() {
    Cost ten = costAt(10);
    Cost tenThousand = costAt(10_000);
    assertThat(tenThousand.recovery()).isEqualTo(ten.recovery());
    assertThat(tenThousand.newId()).isEqualTo(ten.newId());
    assertThat(tenThousand.lookup()).isEqualTo(ten.lookup());
    // Recovery reads each non-empty set's tip (at most two records per set); an accepted
    // proposal reads nothing; a refused one looks its id up once.
    assertThat(ten.recovery().get(2)).isBetween(1L, 2L * RecordSet.values().length);
    assertThat(ten.newId().get(0)).isZero();
    assertThat(ten.lookup().get(0)).isEqualTo(1L);
  }
}
