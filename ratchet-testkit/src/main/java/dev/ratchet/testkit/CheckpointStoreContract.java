package dev.ratchet.testkit;

import static dev.ratchet.testkit.ContractRecords.checkpoint;
import static dev.ratchet.testkit.ContractRecords.codeOf;
import static dev.ratchet.testkit.ContractRecords.traceAfter;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link CheckpointStore} contract (SPEC §4, D6, D7, D12): every implementation subclasses this
 * and supplies a fresh store, the lease store its commits check, and a way to make it unreachable.
 * Expected outcomes are returned ({@code Committed}, {@code LostRace}, {@code Fenced}); refusals
 * are {@link RatchetException}s with their codes. This class holds creation, compare-and-set,
 * fencing and the lease token; the fixture and the record, inbox and fail-closed tests are
 * inherited from {@link CheckpointRecordsContract}, so every subclass runs both.
 */
public abstract class CheckpointStoreContract extends CheckpointRecordsContract {
  @Test
  @Rules("R1.15-mark")
  void aNewRunIsCreatedFromGenerationZero() {
    Lease f = lease("run-a");
    assertThat(commit("run-a", 0, f, checkpoint("run-a", 1)))
        .isEqualTo(new CommitResult.Committed(1));
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.envelope().text()).isEqualTo(checkpoint("run-a", 1));
    assertThat(run.scope()).isEqualTo(scope("run-a"));
    for (RecordSet s : RecordSet.values()) {
      assertThat(run.head(s)).isEqualTo(SetHead.EMPTY);
    }
  }

  @Test
  void theContentDigestIsTheSha256OfTheCheckpoint() {
    commit("run-a", 0, lease("run-a"), checkpoint("run-a", 1));
    assertThat(loaded("run-a").contentDigest())
        .isEqualTo(Canonical.sha256Hex(checkpoint("run-a", 1)));
  }

  @Test
  void anUnknownRunLoadsAsEmpty() {
    assertThat(store.load(TASK, "nobody")).isEmpty();
    assertThat(store.find(TASK, "nobody", RecordSet.TRACE, "1")).isEmpty();
    assertThat(store.records(TASK, "nobody", RecordSet.TRACE, 1, 10)).isEmpty();
  }

  @Test
  @Rules("R1.15-mark")
  void theCurrentGenerationAdvancesByOne() {
    Lease f = lease("run-a");
    for (long g = 0; g < 5; g++) {
      assertThat(commit("run-a", g, f, checkpoint("run-a", g + 1)))
          .isEqualTo(new CommitResult.Committed(g + 1));
      assertThat(loaded("run-a").generation()).isEqualTo(g + 1);
      assertThat(loaded("run-a").envelope().text()).isEqualTo(checkpoint("run-a", g + 1));
    }
  }

  @Test
  @Rules("R1.15-mark")
  void aStaleGenerationLosesTheRaceAndWritesNothing() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 2);
    CommitResult r = store.commit(request("run-a", 1, f, "late", records));
    assertThat(r).isEqualTo(new CommitResult.LostRace(2));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.LOST_RACE);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(2);
    assertThat(run.envelope().text()).isEqualTo(checkpoint("run-a", 2));
    assertThat(run.head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(store.find(TASK, "run-a", RecordSet.TRACE, "1")).isEmpty();
  }

  @Test
  void creatingARunThatExistsLosesTheRace() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    assertThat(commit("run-a", 0, f, "again")).isEqualTo(new CommitResult.LostRace(2));
    assertThat(loaded("run-a").envelope().text()).isEqualTo(checkpoint("run-a", 2));
  }

  @Test
  void advancingARunThatDoesNotExistLosesTheRaceAtZero() {
    assertThat(commit("run-a", 3, lease("run-a"), "ghost")).isEqualTo(new CommitResult.LostRace(0));
    assertThat(store.load(TASK, "run-a")).isEmpty();
  }

  @Test
  @Rules("R1.15-mark")
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (long round = 1; round <= 10; round++) {
        long expected = round;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<CommitResult>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          String text = "{\"round\":" + round + ",\"writer\":" + w + "}";
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    return commit("run-a", expected, f, text);
                  }));
        }
        start.countDown();
        int won = 0;
        for (Future<CommitResult> r : results) {
          CommitResult result = r.get(30, TimeUnit.SECONDS);
          if (result.kind() == CommitResult.Kind.COMMITTED) {
            won++;
            assertThat(result).isEqualTo(new CommitResult.Committed(expected + 1));
          } else {
            assertThat(result).isEqualTo(new CommitResult.LostRace(expected + 1));
          }
        }
        assertThat(won).as("winners in round " + round).isEqualTo(1);
        assertThat(loaded("run-a").generation()).isEqualTo(expected + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- fencing (checked after the generation, before the instance) ----

  @Test
  void aCommitUnderAnotherOwnersNameIsFenced() {
    Lease mine = lease("run-a");
    commit("run-a", 0, mine, checkpoint("run-a", 1));
    Lease forged =
        new Lease("run-a", "intruder", mine.version(), mine.expiresAt(), mine.requireToken());
    CommitResult r = commit("run-a", 1, forged, "forged");
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
  }

  @Test
  void aCommitWithAnOlderLeaseVersionIsFenced() {
    Lease first = leases.acquire("run-a", "worker-1", TTL).orElseThrow();
    commit("run-a", 0, first, checkpoint("run-a", 1));
    clock.advance(TTL.plusSeconds(1));
    Lease second = leases.takeOver("run-a", "worker-1", TTL).orElseThrow();
    assertThat(second.version()).isGreaterThan(first.version());
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r = store.commit(request("run-a", 1, first, "late", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
    assertThat(loaded("run-a").head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(commit("run-a", 1, second, checkpoint("run-a", 2)))
        .isEqualTo(new CommitResult.Committed(2));
  }

  @Test
  void aCommitAfterTheLeaseExpiredIsFenced() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    clock.advance(TTL);
    assertThat(commit("run-a", 1, f, "late").kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
  }

  @Test
  void creatingARunWithoutALeaseIsFenced() {
    Lease f = lease("run-a");
    leases.release(f);
    assertThat(commit("run-a", 0, f, "unleased").kind()).isEqualTo(CommitResult.Kind.FENCED);
    Lease never = new Lease("run-b", "worker-1", 1, START.plus(TTL), f.requireToken());
    assertThat(commit("run-b", 0, never, "never").kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(store.load(TASK, "run-a")).isEmpty();
    assertThat(store.load(TASK, "run-b")).isEmpty();
  }

  @Test
  void theGenerationIsCheckedBeforeTheFence() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    clock.advance(TTL.multipliedBy(2));
    assertThat(commit("run-a", 1, f, "stale and expired")).isEqualTo(new CommitResult.LostRace(2));
  }

  @Test
  void theFenceIsCheckedBeforeTheInstance() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    clock.advance(TTL.multipliedBy(2));
    CommitResult r =
        store.commit(new CommitRequest(new RunScope(TASK, "run-a", "env-2"), 1, f, "x", List.of()));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(((CommitResult.Fenced) r).reason()).doesNotContain("instance");
  }

  @Test
  @Rules("R3.3-instance")
  void aCommitAgainstAnotherEnvironmentInstanceIsFenced() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r =
        store.commit(
            new CommitRequest(new RunScope(TASK, "run-a", "env-2"), 1, f, "other", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.scope().environmentInstanceId()).isEqualTo(ENV);
    assertThat(run.head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
  }

  // ---- the lease token (D21): the fence alone does not commit ----

  @Test
  void aCommitWithTheRightFenceButAnotherTokenIsFencedAndWritesNothing() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    LeaseToken guessed = LeaseToken.of(new byte[LeaseToken.BYTES]);
    Lease forged = new Lease("run-a", f.owner(), f.version(), f.expiresAt(), guessed);
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r = store.commit(request("run-a", 1, forged, "forged", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
    assertThat(loaded("run-a").head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(commit("run-a", 1, f, checkpoint("run-a", 2)))
        .isEqualTo(new CommitResult.Committed(2));
  }

  @Test
  void anObservedLeaseCarriesNoTokenAndCannotCommit() {
    lease("run-a");
    Lease observed = leases.current("run-a").orElseThrow();
    assertThat(observed.token()).isNull();
    assertThat(codeOf(() -> commit("run-a", 0, observed, "x"))).isEqualTo(ErrorCode.FENCED);
    assertThat(store.load(TASK, "run-a")).isEmpty();
  }
}
