package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.Claim;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Java claim API on PostgreSQL (ADR 0060), through the V4 functions under the D21 roles: the
 * operator enqueues, the worker claims (the lease is granted to the worker's fresh token), a second
 * claim finds nothing while the lease is held, and a finished or parked run is not claimed again.
 */
@RequiresPostgres
class PostgresClaimTest {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  @Test
  void theOperatorEnqueuesAndTheWorkerClaimsFinishesAndParks() {
    try (JdbcStore operator = JdbcStore.open(SCHEMA.get().operator(), PgSchema.options());
        JdbcStore worker = SCHEMA.get().openWorker()) {
      operator.schedule("task-1", "worker2-r1", "plan", "tasks/r1.json");
      Claim first = worker.claim("w1", Duration.ofSeconds(30)).orElseThrow();
      assertThat(first.runId()).isEqualTo("worker2-r1");
      assertThat(first.driver()).isEqualTo("plan");
      assertThat(first.taskRef()).isEqualTo("tasks/r1.json");
      assertThat(first.lease().held()).isTrue();
      assertThat(worker.current("worker2-r1").orElseThrow().owner()).isEqualTo("w1");
      assertThat(worker.claim("w2", Duration.ofSeconds(30))).isEmpty();
      worker.finish(first, first.lease());
      worker.release(first.lease());
      assertThat(worker.claim("w2", Duration.ofSeconds(30))).isEmpty();

      operator.schedule("task-1", "worker2-r2", "plan", "tasks/r2.json");
      Claim second = worker.claim("w2", Duration.ofSeconds(30)).orElseThrow();
      assertThat(second.runId()).isEqualTo("worker2-r2");
      assertThat(worker.park(second, second.lease(), null)).isTrue();
      worker.release(second.lease());
      assertThat(worker.claim("w3", Duration.ofSeconds(30))).isEmpty();
    }
  }
}
