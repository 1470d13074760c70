package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.Lease;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43, "Must show": a worker of the old primary writes through the reference service after the
 * promotion and is refused by the fence. Asynchronous replication loses the old primary's last
 * lease grant (its WAL sender is cut before the grant, as a lagging standby would miss it), so the
 * promoted standby holds the version before it; without fence epochs it would hand the lost version
 * out again, and the service, which refuses only older fences, would accept both holders. With them
 * (ADR 0121) the new holder's fence is strictly newer and the old worker's write is refused.
 * Required when {@code CI=true}; skipped elsewhere without the server binaries.
 */
class FailoverFenceTest {
  @TempDir Path dir;

  @Test
  void anOldPrimarysWorkerIsRefusedByTheFenceAfterPromotion() throws Exception {
    Optional<Path> bin = ReplicaPair.binaries();
    if (bin.isEmpty()) {
      String why =
          "no PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      Assumptions.abort(why);
    }
    Duration ttl = Duration.ofSeconds(1);
    try (ReplicaPair pair = ReplicaPair.start(bin.get(), false);
        ReferenceService service = ChaosLedger.start(dir.resolve("ledger.db"))) {
      String schema = PgServer.createSchema(pair.primaryUrl());
      EnvironmentAdapter ledger = ChaosLedger.adapter(service.uri());
      Lease old;
      try (JdbcStore a = JdbcStore.open(worker(pair, schema), PgServer.options())) {
        Lease first = a.acquire("run-1", "worker-a", ttl).orElseThrow();
        pair.awaitStandbyReplayed(10_000);
        assertThat(leaseVersion(pair.standbyUrl(), schema)).isEqualTo(first.version());
        a.release(first);
        pair.cutReplication();
        old = a.acquire("run-1", "worker-a", Duration.ofMinutes(5)).orElseThrow();
        assertThat(order(ledger, "sku-a1", old).kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
        pair.killPrimary();
      }
      pair.awaitStandbyReplayed(10_000);
      long held = leaseVersion(pair.standbyUrl(), schema);
      // The hazard: the standby lost the grant, so a plain increment would repeat its version.
      assertThat(held).isEqualTo(old.version() - 1);
      pair.promote();
      assertThat(pair.timeline()).isEqualTo(2);
      try (JdbcStore b = JdbcStore.open(worker(pair, schema), PgServer.options())) {
        LockSupport.parkNanos(ttl.plusMillis(200).toNanos()); // the standby's copy of v1 lapses
        Lease fresh = b.takeOver("run-1", "worker-b", ttl.multipliedBy(30)).orElseThrow();
        assertThat(fresh.version()).isEqualTo((1L << 32) + 1).isGreaterThan(old.version());
        assertThat(order(ledger, "sku-b1", fresh).kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
      }
      assertThatThrownBy(() -> order(ledger, "sku-a2", old))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
      assertThat(service.orders())
          .extracting(o -> ((JsonString) o.get("sku").orElseThrow()).value())
          .containsExactly("sku-a1", "sku-b1");
    }
  }

  private static dev.ratchet.jdbc.Database worker(ReplicaPair pair, String schema) {
    return PgServer.as(pair.url(), schema, PgServer.WORKER, 2);
  }

  private static AdapterOutcome order(EnvironmentAdapter ledger, String sku, Lease lease) {
    WriteIntent intent =
        new WriteIntent(
            ledger.namespace(),
            "create_order",
            JsonObject.builder()
                .put("account", ChaosTasks.ACCOUNT)
                .put("sku", sku)
                .put("quantity", 1)
                .put("unit_price_cents", 100)
                .build(),
            "low");
    return ledger.execute(intent, "key-" + sku, lease.fence(), ApprovalBinding.NONE);
  }

  private static long leaseVersion(String url, String schema) throws Exception {
    try (Connection c = ReplicaPair.admin(url)) {
      return ReplicaPair.queryLong(
          c, "SELECT version FROM " + schema + ".ratchet_leases WHERE run_id = 'run-1'");
    }
  }
}
