package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.schedule.Claim;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The rows of the {@link dev.ratchet.schedule.SchedulingStore} contract (ADR 0060, 0064): a claim
 * grants the run's lease and nobody else's claim gets the run while it is held; the least recently
 * touched row goes first; a parked run waits for an inbox item or its wake-up time; an item that
 * arrives before the park keeps the run runnable; a lapsed lease makes the run claimable again and
 * fences the old holder; park and finish need the claim's token; a finished row is never claimed
 * again; a run is scheduled once; the reason a worker gives when it parks or ends a run is listed
 * with its time until the next claim clears it (issue 39), a claim by a lease holder too ({@link
 * dev.ratchet.schedule.SchedulingStore#claimHeld}, a manual resume). Part of {@link
 * SchedulingStoreContract}, which implementations subclass.
 */
public abstract class SchedulingRowsContract extends SchedulingFixture {
  @Test
  void aClaimGrantsTheLeaseAndNoOtherClaimGetsTheRunWhileItIsHeld() {
    store.schedule(TASK, "run-a", DRIVER, "tasks/a.json");
    Claim c = claim("w1");
    assertThat(c.taskId()).isEqualTo(TASK);
    assertThat(c.runId()).isEqualTo("run-a");
    assertThat(c.driver()).isEqualTo(DRIVER);
    assertThat(c.taskRef()).isEqualTo("tasks/a.json");
    assertThat(c.submitted()).isFalse();
    assertThat(c.submission()).isEmpty();
    assertThat(c.nudges()).isZero();
    assertThat(c.lease().owner()).isEqualTo("w1");
    assertThat(c.lease().held()).as("the claim hands over the token").isTrue();
    assertThat(c.lease().expiresAt()).isEqualTo(START.plus(TTL));
    assertThat(store.current("run-a").orElseThrow().fence()).isEqualTo(c.lease().fence());
    assertThat(store.claim("w2", TTL)).as("held: not claimable").isEmpty();
    // The claimed lease is the run's lease: it commits, renews and releases like any other.
    start("run-a", c.lease());
    store.renew(c.lease(), TTL);
    store.release(c.lease());
    Claim again = claim("w2");
    assertThat(again.runId()).isEqualTo("run-a");
    assertThat(again.lease().version()).isEqualTo(c.lease().version() + 1);
  }

  @Test
  void everyRowIsListedWithItsStateWhatItWaitsForAndWhenItLastChanged() {
    assertThat(store.scheduled()).isEmpty();
    store.schedule(TASK, "run-a", DRIVER, "ref");
    clock.advance(Duration.ofMillis(5));
    store.schedule(TASK, "run-b", DRIVER, "ref");
    assertThat(store.scheduled())
        .extracting(r -> r.runId() + ":" + r.state() + ":" + r.submitted())
        .containsExactly("run-a:runnable:false", "run-b:runnable:false");
    assertThat(store.scheduled().get(0).updatedAt()).isEqualTo(START);
    Claim a = claim("w1");
    start(a.runId(), a.lease());
    clock.advance(Duration.ofMillis(5));
    assertThat(store.park(a, a.lease(), START.plusSeconds(60))).isTrue();
    store.release(a.lease());
    dev.ratchet.schedule.ScheduledRun parked =
        store.scheduled().stream().filter(r -> r.runId().equals(a.runId())).findFirst().get();
    assertThat(parked.state()).isEqualTo("waiting");
    assertThat(parked.wakeAt()).isEqualTo(START.plusSeconds(60));
    assertThat(parked.updatedAt()).isEqualTo(START.plusMillis(10));
  }

  @Test
  void theLeastRecentlyTouchedRowIsClaimedFirst() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    clock.advance(Duration.ofMillis(5));
    store.schedule(TASK, "run-b", DRIVER, "ref");
    clock.advance(Duration.ofMillis(5));
    Claim a = claim("w1");
    assertThat(a.runId()).isEqualTo("run-a");
    store.release(a.lease()); // yielded: runnable, but touched by its claim
    clock.advance(Duration.ofMillis(5));
    assertThat(claim("w2").runId()).as("the busy run goes to the back").isEqualTo("run-b");
  }

  @Test
  void aRunParkedWithoutAWakeUpTimeWaitsForAnInboxItem() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-a", c.lease());
    assertThat(store.park(c, c.lease(), null)).isTrue();
    store.release(c.lease());
    clock.advance(Duration.ofDays(1));
    assertThat(store.claim("w2", TTL)).as("parked: no time wakes it").isEmpty();
    deliver("run-a", "n-1");
    Claim woke = claim("w2");
    assertThat(woke.runId()).isEqualTo("run-a");
    assertThat(woke.nudges()).isEqualTo(c.nudges() + 1);
  }

  @Test
  void parkedRunsWithADueWakeUpAreClaimableAndThoseWithAFutureOneAreNot() {
    store.schedule(TASK, "run-future", DRIVER, "ref");
    store.schedule(TASK, "run-due", DRIVER, "ref");
    Claim first = claim("w1");
    Claim second = claim("w1");
    Claim future = first.runId().equals("run-future") ? first : second;
    Claim due = first.runId().equals("run-due") ? first : second;
    assertThat(store.park(future, future.lease(), START.plusSeconds(60))).isTrue();
    assertThat(store.park(due, due.lease(), START.plusSeconds(10))).isTrue();
    store.release(future.lease());
    store.release(due.lease());
    assertThat(store.claim("w2", TTL)).as("no wake-up time has come").isEmpty();
    clock.advance(Duration.ofSeconds(10));
    Claim woke = claim("w2");
    assertThat(woke.runId()).as("the due wake-up, exactly at its time").isEqualTo("run-due");
    assertThat(store.claim("w3", TTL)).as("the future wake-up still sleeps").isEmpty();
    store.release(woke.lease()); // held past its TTL it would be a takeover, claimed first
    clock.advance(Duration.ofSeconds(50));
    assertThat(claim("w3").runId()).isEqualTo("run-future");
  }

  @Test
  void anInboxItemThatArrivesBeforeTheParkKeepsTheRunRunnable() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-a", c.lease());
    deliver("run-a", "n-1"); // lands while the worker decides to wait
    assertThat(store.park(c, c.lease(), null)).as("lost to the delivery").isFalse();
    store.release(c.lease());
    Claim again = claim("w2");
    assertThat(again.nudges()).isEqualTo(c.nudges() + 1);
  }

  @Test
  void aLapsedLeaseMakesTheRunClaimableAndFencesTheOldHolder() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim dead = claim("w1"); // its worker dies holding the lease
    clock.advance(TTL.minusMillis(1));
    assertThat(store.claim("w2", TTL)).as("not yet lapsed").isEmpty();
    clock.advance(Duration.ofMillis(1));
    Claim next = claim("w2");
    assertThat(next.runId()).isEqualTo("run-a");
    assertThat(next.lease().version()).isGreaterThan(dead.lease().version());
    assertThat(ContractRecords.codeOf(() -> store.park(dead, dead.lease(), null)))
        .isEqualTo(ErrorCode.FENCED);
    assertThat(ContractRecords.codeOf(() -> store.finish(dead, dead.lease())))
        .isEqualTo(ErrorCode.FENCED);
    assertThat(ContractRecords.codeOf(() -> store.renew(dead.lease(), TTL)))
        .isEqualTo(ErrorCode.FENCED);
    // The new holder's lease is untouched by the old holder's attempts.
    assertThat(store.park(next, next.lease(), null)).isTrue();
  }

  @Test
  void aRunWhoseLeaseLapsedIsClaimedBeforeRunsNobodyClaimedYet() {
    // ADR 0065: a dead worker's run does not wait behind the backlog of never-claimed runs.
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim dead = claim("w1"); // touched now: the newest row; its worker dies holding the lease
    clock.advance(Duration.ofMillis(5));
    store.schedule(TASK, "run-b", DRIVER, "ref");
    store.schedule(TASK, "run-c", DRIVER, "ref");
    clock.advance(TTL);
    Claim next = claim("w2");
    assertThat(next.runId()).as("the lapsed run first").isEqualTo("run-a");
    assertThat(next.lease().version()).isGreaterThan(dead.lease().version());
    assertThat(claim("w2").runId()).as("then the oldest never-claimed").isEqualTo("run-b");
  }

  @Test
  void finishAndReleaseEndsTheRowAndFreesTheLeaseUnderTheClaimsTokenOnly() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    Lease forged =
        new Lease(
            "run-a",
            "w1",
            c.lease().version(),
            c.lease().expiresAt(),
            LeaseToken.of(new byte[LeaseToken.BYTES]));
    assertThat(ContractRecords.codeOf(() -> store.finishAndRelease(c, forged)))
        .isEqualTo(ErrorCode.FENCED);
    assertThat(store.acquire("run-a", "w3", TTL)).as("still held").isEmpty();
    store.finishAndRelease(c, c.lease());
    assertThat(store.acquire("run-a", "w3", TTL)).as("released: free to take").isPresent();
    assertThat(store.scheduled())
        .extracting(r -> r.runId() + ":" + r.state())
        .containsExactly("run-a:ended");
    clock.advance(TTL);
    assertThat(store.claim("w2", TTL)).as("ended: never claimed again").isEmpty();
  }

  @Test
  void parkAndFinishNeedTheClaimsToken() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    Lease forged =
        new Lease(
            "run-a",
            "w1",
            c.lease().version(),
            c.lease().expiresAt(),
            LeaseToken.of(new byte[LeaseToken.BYTES]));
    assertThat(ContractRecords.codeOf(() -> store.park(c, forged, null)))
        .isEqualTo(ErrorCode.FENCED);
    assertThat(ContractRecords.codeOf(() -> store.finish(c, forged))).isEqualTo(ErrorCode.FENCED);
    assertThat(store.park(c, c.lease(), null)).as("the real token still parks").isTrue();
  }

  @Test
  void aFinishedRowIsNeverClaimedAgainNotEvenAfterADelivery() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-a", c.lease());
    store.finish(c, c.lease());
    store.release(c.lease());
    clock.advance(Duration.ofDays(1));
    assertThat(store.claim("w2", TTL)).isEmpty();
    deliver("run-a", "n-late");
    assertThat(store.claim("w2", TTL)).as("ended stays ended").isEmpty();
  }

  @Test
  void aReasonGivenAtFinishIsListedWithItsTime() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    store.schedule(TASK, "run-b", DRIVER, "ref");
    Claim a = claim("w1");
    clock.advance(Duration.ofMillis(7));
    store.finish(a, a.lease(), "ended at claim: CONTRACT: bad task; submit it again");
    store.release(a.lease());
    dev.ratchet.schedule.ScheduledRun ended = row(a.runId());
    assertThat(ended.state()).isEqualTo("ended");
    assertThat(ended.reason()).isEqualTo("ended at claim: CONTRACT: bad task; submit it again");
    assertThat(ended.reasonAt()).isEqualTo(START.plusMillis(7));
    Claim b = claim("w1");
    store.finish(b, b.lease());
    store.release(b.lease());
    assertThat(row(b.runId()).reason()).as("no reason given, none listed").isNull();
    assertThat(row(b.runId()).reasonAt()).isNull();
  }

  @Test
  void aReasonGivenAtParkStaysThroughAWakeAndTheNextClaimClearsIt() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-a", c.lease());
    clock.advance(Duration.ofMillis(3));
    assertThat(store.park(c, c.lease(), null, "parked at claim: CONTRACT: refused")).isTrue();
    store.release(c.lease());
    assertThat(row("run-a").reason()).isEqualTo("parked at claim: CONTRACT: refused");
    assertThat(row("run-a").reasonAt()).isEqualTo(START.plusMillis(3));
    assertThat(store.wakeWaiting()).isEqualTo(1);
    assertThat(row("run-a").state()).isEqualTo("runnable");
    assertThat(row("run-a").reason()).as("woken, not yet claimed").isNotNull();
    clock.advance(Duration.ofMillis(3));
    Claim again = claim("w2");
    assertThat(row("run-a").reason()).as("a claim clears it").isNull();
    assertThat(row("run-a").reasonAt()).isNull();
    assertThat(store.park(again, again.lease(), null)).isTrue();
    assertThat(row("run-a").reason()).as("an ordinary park gives none").isNull();
  }

  @Test
  void aLeaseTakenWithoutAClaimClaimsItsRowClearingTheReasonAndTheRowThenParksOrEndsAsAWorkers() {
    store.schedule(TASK, "run-a", DRIVER, "tasks/a.json");
    Claim c = claim("w1");
    start("run-a", c.lease());
    assertThat(store.park(c, c.lease(), null, "parked at claim: CONTRACT: refused")).isTrue();
    store.release(c.lease());
    // An operator's resume takes the run's lease itself (no claim), then claims the row under it.
    Lease held = store.acquire("run-a", "operator", TTL).orElseThrow();
    Lease forged =
        new Lease(
            "run-a",
            "operator",
            held.version(),
            held.expiresAt(),
            LeaseToken.of(new byte[LeaseToken.BYTES]));
    assertThat(ContractRecords.codeOf(() -> store.claimHeld(TASK, "run-a", forged)))
        .isEqualTo(ErrorCode.FENCED);
    assertThat(row("run-a").reason()).as("refused: unchanged").isNotNull();
    clock.advance(Duration.ofMillis(4));
    Claim mine = store.claimHeld(TASK, "run-a", held).orElseThrow();
    assertThat(mine.driver()).isEqualTo(DRIVER);
    assertThat(mine.taskRef()).isEqualTo("tasks/a.json");
    assertThat(mine.lease()).isEqualTo(held);
    assertThat(row("run-a").reason()).as("cleared as a claim clears it").isNull();
    assertThat(row("run-a").reasonAt()).isNull();
    assertThat(row("run-a").state()).isEqualTo("runnable");
    assertThat(row("run-a").updatedAt()).isEqualTo(START.plusMillis(4));
    assertThat(store.park(mine, held, null)).as("it parks as a worker's claim").isTrue();
    assertThat(row("run-a").state()).isEqualTo("waiting");
    assertThat(row("run-a").reason()).isNull();
    Claim again = store.claimHeld(TASK, "run-a", held).orElseThrow();
    store.finish(again, held);
    assertThat(row("run-a").state()).isEqualTo("ended");
    assertThat(store.claimHeld(TASK, "run-a", held)).as("an ended row is left alone").isEmpty();
    assertThat(row("run-a").state()).isEqualTo("ended");
    store.release(held);
    Lease other = store.acquire("run-b", "operator", TTL).orElseThrow();
    assertThat(store.claimHeld(TASK, "run-b", other)).as("no row, nothing claimed").isEmpty();
    assertThat(store.scheduled()).extracting(r -> r.runId()).containsExactly("run-a");
  }

  @Test
  void aLongReasonIsCutToTheLongestARowKeeps() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    store.finish(c, c.lease(), "x".repeat(5000));
    assertThat(row("run-a").reason())
        .hasSize(dev.ratchet.schedule.ScheduledRun.REASON_MAX)
        .endsWith("...");
  }

  private dev.ratchet.schedule.ScheduledRun row(String runId) {
    return store.scheduled().stream().filter(r -> r.runId().equals(runId)).findFirst().get();
  }

  @Test
  void aRunIsScheduledOnce() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    assertThat(ContractRecords.codeOf(() -> store.schedule(TASK, "run-a", DRIVER, "other")))
        .isEqualTo(ErrorCode.CONTRACT);
    assertThat(claim("w1").taskRef()).as("the first scheduling stands").isEqualTo("ref");
  }

  @Test
  void nothingScheduledMeansNothingClaimed() {
    assertThat(store.claim("w1", TTL)).isEqualTo(Optional.empty());
  }
}
