package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.Claim;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java claim API on SQLite (ADR 0060): a scheduled run is claimed once with a held lease; a
 * parked run is not claimable until an inbox item wakes it; a lapsed lease makes it claimable by
 * another owner; an ended run is never claimed again.
 */
class SqliteClaimTest {
  @TempDir Path dir;

  @Test
  void claimParkWakeTakeOverFinish() {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store =
        JdbcStore.open(Database.sqlite(dir.resolve("c.db")), TestStores.options(now::get))) {
      TestRun writer = new TestRun(store, store, "run-a");
      writer.commits(1, 1);
      store.release(writer.lease);
      store.schedule(TestRun.TASK, "run-a", "plan", "t.json");
      Claim first = store.claim("w1", Duration.ofSeconds(2)).orElseThrow();
      assertThat(first.runId()).isEqualTo("run-a");
      assertThat(first.driver()).isEqualTo("plan");
      assertThat(first.lease().held()).isTrue();
      assertThat(store.current("run-a").orElseThrow().owner()).isEqualTo("w1");
      assertThat(store.claim("w2", Duration.ofSeconds(2))).isEmpty();

      assertThat(store.park(first, first.lease(), null)).isTrue();
      store.release(first.lease());
      assertThat(store.claim("w2", Duration.ofSeconds(2))).isEmpty();

      store.deliver(TestRun.TASK, "run-a", new InboxItem("i-1", InboxItem.Kind.APPROVAL, "{}"));
      Claim second = store.claim("w2", Duration.ofSeconds(2)).orElseThrow();
      assertThat(second.nudges()).isEqualTo(1);
      assertThat(second.lease().version()).isGreaterThan(first.lease().version());

      now.set(now.get().plusSeconds(3)); // w2 dies: its lease lapses
      Claim third = store.claim("w3", Duration.ofSeconds(2)).orElseThrow();
      assertThat(third.lease().owner()).isEqualTo("w3");
      Optional<Lease> held = store.current("run-a");
      assertThat(held.orElseThrow().version()).isEqualTo(third.lease().version());

      store.finish(third, third.lease());
      store.release(third.lease());
      assertThat(store.claim("w4", Duration.ofSeconds(2))).isEmpty();
    }
  }
}
