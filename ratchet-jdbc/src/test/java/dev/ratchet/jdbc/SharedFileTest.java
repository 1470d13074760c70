package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RunScope;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two stores on one file, as two processes would have: each has its own writer connection, so only
 * SQLite's write lock ({@code BEGIN IMMEDIATE} and the busy timeout) keeps them apart.
 */
class SharedFileTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));

  @Test
  void writersOfTwoStoresRaceAndExactlyOneWinsEachGeneration() throws Exception {
    Path file = dir.resolve("shared.db");
    StoreOptions options = TestStores.options(clock).withBusyTimeout(Duration.ofSeconds(30));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (JdbcStore a = JdbcStore.open(Database.sqlite(file), options);
        JdbcStore b = JdbcStore.open(Database.sqlite(file), options)) {
      Lease fence = a.acquire("run-1", "w", Duration.ofHours(1)).orElseThrow();
      RunScope scope = new RunScope("t", "run-1", "env");
      for (long expected = 0; expected < 15; expected++) {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<CommitResult>> results = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
          JdbcStore s = w % 2 == 0 ? a : b;
          CommitRequest r =
              new CommitRequest(scope, expected, fence, "{\"w\":" + w + "}", List.of());
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    return s.commit(r);
                  }));
        }
        start.countDown();
        int won = 0;
        for (Future<CommitResult> f : results) {
          CommitResult result = f.get(60, TimeUnit.SECONDS);
          won += result.kind() == CommitResult.Kind.COMMITTED ? 1 : 0;
          assertThat(result)
              .isIn(
                  new CommitResult.Committed(expected + 1),
                  new CommitResult.LostRace(expected + 1));
        }
        assertThat(won).as("winners at generation " + expected).isEqualTo(1);
        assertThat(b.load("t", "run-1").orElseThrow().generation()).isEqualTo(expected + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLeaseTakenOverThroughOneStoreFencesCommitsThroughTheOther() {
    Path file = dir.resolve("fence.db");
    StoreOptions options = TestStores.options(clock);
    try (JdbcStore a = JdbcStore.open(Database.sqlite(file), options);
        JdbcStore b = JdbcStore.open(Database.sqlite(file), options)) {
      Lease first = a.acquire("run-1", "w1", Duration.ofSeconds(30)).orElseThrow();
      RunScope scope = new RunScope("t", "run-1", "env");
      assertThat(a.commit(new CommitRequest(scope, 0, first, "{}", List.of())))
          .isEqualTo(new CommitResult.Committed(1));
      clock.advance(Duration.ofSeconds(31));
      Lease second = b.takeOver("run-1", "w2", Duration.ofSeconds(30)).orElseThrow();
      CommitResult late = a.commit(new CommitRequest(scope, 1, first, "{\"late\":1}", List.of()));
      assertThat(late.kind()).isEqualTo(CommitResult.Kind.FENCED);
      assertThat(b.commit(new CommitRequest(scope, 1, second, "{\"on\":1}", List.of())))
          .isEqualTo(new CommitResult.Committed(2));
    }
  }
}
