package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RecordSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Contention as threads (SPEC §5): in each of {@value #RACES} races, {@value #RACERS} threads that
 * all hold the run's live lease commit on the same generation through one pooled store, each on its
 * own connection; exactly one wins and the others get {@code LostRace} with the winner's
 * generation. Nothing a loser sent (checkpoint, records) remains.
 */
@RequiresPostgres
class PostgresContentionTest {
  static final int RACES = 1000;
  static final int RACERS = 4;

  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  @Test
  void inEveryRaceOnOneGenerationExactlyOneCommitWins() throws Exception {
    try (JdbcStore store =
        JdbcStore.open(SCHEMA.get().worker().withPoolSize(RACERS), PgSchema.options())) {
      TestRun run = new TestRun(store, store, "race-run");
      ExecutorService pool = Executors.newFixedThreadPool(RACERS);
      CyclicBarrier start = new CyclicBarrier(RACERS);
      List<String> problems = new ArrayList<>();
      try {
        for (int race = 0; race < RACES; race++) {
          long g = run.generation;
          List<CommitRequest> requests = new ArrayList<>();
          for (int i = 0; i < RACERS; i++) {
            requests.add(run.next(1 + i % 2)); // racers differ in records and checkpoint
          }
          List<Future<CommitResult>> results = new ArrayList<>();
          for (CommitRequest r : requests) {
            results.add(
                pool.submit(
                    () -> {
                      start.await(30, TimeUnit.SECONDS);
                      return store.commit(r);
                    }));
          }
          int won = -1;
          for (int i = 0; i < RACERS; i++) {
            CommitResult r = results.get(i).get(60, TimeUnit.SECONDS);
            if (r.equals(new CommitResult.Committed(g + 1))) {
              if (won >= 0) {
                problems.add("race " + race + ": racers " + won + " and " + i + " both won");
              }
              won = i;
            } else if (!r.equals(new CommitResult.LostRace(g + 1))) {
              problems.add("race " + race + ": racer " + i + " got " + r);
            }
          }
          if (won < 0) {
            problems.add("race " + race + ": nobody won");
            break;
          }
          run.accepted(requests.get(won));
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(problems).isEmpty();
      var loaded = store.load(TestRun.TASK, "race-run").orElseThrow();
      assertThat(loaded.generation()).isEqualTo(RACES);
      assertThat(loaded.envelope().text())
          .isEqualTo(TestRun.checkpoint("race-run", RACES, run.trace));
      assertThat(loaded.head(RecordSet.TRACE)).isEqualTo(run.trace);
    }
  }
}
