package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.LeaseToken;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link LeaseStore} contract (SPEC §5, D8): acquire never steals, take-over only after expiry
 * and always with a new version, renew keeps the version, release frees, and {@code check} refuses
 * every fence that is not the current live lease. Expiry is judged on the injected clock: a lease
 * is live while {@code now < expiresAt}.
 */
public abstract class LeaseStoreContract {
  protected static final Instant START = Instant.parse("2026-07-18T09:00:00Z");
  protected static final Duration TTL = Duration.ofSeconds(30);

  protected ManualClock clock;
  protected LeaseStore leases;

  /** A fresh lease store judging expiry on {@code clock}; closed after each test if closeable. */
  protected abstract LeaseStore newLeaseStore(ManualClock clock);

  @BeforeEach
  void openLeases() {
    clock = new ManualClock(START);
    leases = newLeaseStore(clock);
  }

  @AfterEach
  void closeLeases() throws Exception {
    if (leases instanceof AutoCloseable c) {
      c.close();
    }
  }

  private static void assertFenced(ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.FENCED);
  }

  @Test
  void aFreeRunIsAcquiredAtVersionOne() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertThat(l.observed()).isEqualTo(new Lease("run-a", "w1", 1, START.plus(TTL)));
    assertThat(leases.current("run-a")).contains(l.observed());
    leases.check(l.fence());
  }

  @Test
  void aHeldLeaseIsNotAcquiredByAnother() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertThat(leases.acquire("run-a", "w2", TTL)).isEmpty();
    assertThat(leases.acquire("run-a", "w1", TTL)).isEmpty();
    assertThat(leases.current("run-a")).contains(l.observed());
  }

  @Test
  void acquireNeverStealsAnExpiredLease() {
    leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL.multipliedBy(10));
    assertThat(leases.acquire("run-a", "w2", TTL)).isEmpty();
  }

  @Test
  void takeOverIsRefusedWhileTheLeaseIsLive() {
    leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL.minusMillis(1));
    assertThat(leases.takeOver("run-a", "w2", TTL)).isEmpty();
  }

  @Test
  void takeOverAfterExpiryIncrementsTheVersionAndFencesTheOldHolder() {
    Lease old = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL);
    Lease taken = leases.takeOver("run-a", "w2", TTL).orElseThrow();
    assertThat(taken.owner()).isEqualTo("w2");
    assertThat(taken.version()).isEqualTo(old.version() + 1);
    assertThat(taken.expiresAt()).isEqualTo(clock.instant().plus(TTL));
    leases.check(taken.fence());
    assertFenced(() -> leases.check(old.fence()));
    assertFenced(() -> leases.renew(old, TTL));
  }

  @Test
  void theSameOwnerTakingOverStillGetsANewVersion() {
    Lease old = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL.plusSeconds(5));
    Lease again = leases.takeOver("run-a", "w1", TTL).orElseThrow();
    assertThat(again.version()).isEqualTo(old.version() + 1);
    assertFenced(() -> leases.check(old.fence()));
  }

  @Test
  void takeOverGrantsARunThatWasNeverLeased() {
    assertThat(leases.takeOver("run-a", "w1", TTL))
        .map(Lease::observed)
        .contains(new Lease("run-a", "w1", 1, START.plus(TTL)));
  }

  @Test
  void renewExtendsTheLeaseAndKeepsItsVersion() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(Duration.ofSeconds(20));
    Lease renewed = leases.renew(l, TTL);
    assertThat(renewed.version()).isEqualTo(l.version());
    assertThat(renewed.expiresAt()).isEqualTo(clock.instant().plus(TTL));
    clock.advance(Duration.ofSeconds(20));
    leases.check(renewed.fence());
    assertThat(leases.takeOver("run-a", "w2", TTL)).isEmpty();
  }

  @Test
  void renewAfterExpiryIsFenced() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL);
    assertFenced(() -> leases.renew(l, TTL));
  }

  @Test
  void renewByAnotherOwnerIsFenced() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertFenced(
        () -> leases.renew(new Lease("run-a", "w2", l.version(), l.expiresAt(), l.token()), TTL));
  }

  @Test
  void releaseFreesTheRunForTheNextOwnerWithANewVersion() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    leases.release(l);
    assertFenced(() -> leases.check(l.fence()));
    Lease next = leases.acquire("run-a", "w2", TTL).orElseThrow();
    assertThat(next.version()).isEqualTo(l.version() + 1);
    assertFenced(() -> leases.renew(l, TTL));
  }

  @Test
  void releaseByAStaleHolderIsANoOp() {
    Lease old = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL);
    Lease taken = leases.takeOver("run-a", "w2", TTL).orElseThrow();
    leases.release(old);
    leases.check(taken.fence());
    assertThat(leases.acquire("run-a", "w3", TTL)).isEmpty();
  }

  @Test
  void checkRefusesEveryFenceButTheCurrentLiveLease() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    leases.check(l.fence());
    assertFenced(() -> leases.check(new Fence("run-a", "w2", l.version())));
    assertFenced(() -> leases.check(new Fence("run-a", "w1", l.version() + 1)));
    assertFenced(() -> leases.check(new Fence("run-b", "w1", l.version())));
    clock.advance(TTL);
    assertFenced(() -> leases.check(l.fence()));
  }

  @Test
  void aLeaseExpiresExactlyAtItsExpiry() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.set(l.expiresAt().minusMillis(1));
    leases.check(l.fence());
    assertThat(leases.takeOver("run-a", "w2", TTL)).isEmpty();
    clock.set(l.expiresAt());
    assertFenced(() -> leases.check(l.fence()));
    assertThat(leases.takeOver("run-a", "w2", TTL)).isPresent();
  }

  @Test
  void currentShowsTheLeaseWhetherExpiredOrNot() {
    assertThat(leases.current("run-a")).isEmpty();
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(TTL.multipliedBy(3));
    assertThat(leases.current("run-a")).contains(l.observed());
  }

  @Test
  void leasesOfDifferentRunsAreIndependent() {
    Lease a = leases.acquire("run-a", "w1", TTL).orElseThrow();
    Lease b = leases.acquire("run-b", "w2", TTL).orElseThrow();
    assertThat(b.version()).isEqualTo(1);
    leases.release(a);
    leases.check(b.fence());
    assertThat(leases.current("run-b")).contains(b.observed());
  }

  // ---- the lease is a capability (D21): its token, not its name, renews and releases ----

  @Test
  void everyGrantCarriesAFreshSecretTokenThatIsNeverShown() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertThat(l.held()).isTrue();
    byte[] secret = l.token().secret();
    assertThat(secret.length * 8).isGreaterThanOrEqualTo(128);
    String hex = java.util.HexFormat.of().formatHex(secret);
    assertThat(l.token().hash()).hasSize(64).isNotEqualTo(hex);
    assertThat(l.toString()).doesNotContain(hex).contains("redacted");
    assertThat(leases.current("run-a").orElseThrow().token()).isNull();
    leases.release(l);
    Lease next = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertThat(next.token()).isNotEqualTo(l.token());
  }

  @Test
  void renewKeepsTheToken() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    assertThat(leases.renew(l, TTL).token()).isEqualTo(l.token());
  }

  @Test
  void renewWithTheRightFenceButAnotherTokenIsFencedAndChangesNothing() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    clock.advance(Duration.ofSeconds(20));
    assertFenced(() -> leases.renew(withToken(l, LeaseToken.of(new byte[32])), TTL));
    assertFenced(() -> leases.renew(l.observed(), TTL));
    assertThat(leases.current("run-a").orElseThrow().expiresAt()).isEqualTo(l.expiresAt());
    leases.renew(l, TTL);
  }

  @Test
  void releaseWithTheRightFenceButAnotherTokenIsANoOp() {
    Lease l = leases.acquire("run-a", "w1", TTL).orElseThrow();
    leases.release(withToken(l, LeaseToken.of(new byte[32])));
    leases.release(l.observed());
    leases.release(leases.current("run-a").orElseThrow());
    leases.check(l.fence());
    assertThat(leases.acquire("run-a", "w2", TTL)).isEmpty();
    leases.renew(l, TTL);
  }

  private static Lease withToken(Lease l, LeaseToken token) {
    return new Lease(l.runId(), l.owner(), l.version(), l.expiresAt(), token);
  }

  @Test
  void exactlyOneOfManyRacingAcquirersWins() throws Exception {
    assertThat(race(owner -> leases.acquire("run-a", owner, TTL))).isEqualTo(1);
  }

  @Test
  void exactlyOneOfManyRacingTakeOversWins() throws Exception {
    leases.acquire("run-a", "w0", TTL).orElseThrow();
    clock.advance(TTL);
    assertThat(race(owner -> leases.takeOver("run-a", owner, TTL))).isEqualTo(1);
    assertThat(leases.current("run-a").orElseThrow().version()).isEqualTo(2);
  }

  /** Runs {@code grab} from eight threads at once; returns how many got a lease. */
  private static int race(Function<String, Optional<Lease>> grab) throws Exception {
    int n = 8;
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Optional<Lease>>> results = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String owner = "racer-" + i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return grab.apply(owner);
                }));
      }
      start.countDown();
      int won = 0;
      for (Future<Optional<Lease>> r : results) {
        won += r.get(30, TimeUnit.SECONDS).isPresent() ? 1 : 0;
      }
      return won;
    } finally {
      pool.shutdownNow();
    }
  }
}
