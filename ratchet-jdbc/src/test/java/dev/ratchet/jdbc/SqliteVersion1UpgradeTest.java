package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.jdbc.internal.Dialect;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real version-1 SQLite store (only {@code V1__tables.sql} applied, a run in version-1 shapes:
 * checkpoint schema version 1 without {@code key_salt}, records without MACs, a token-less lease;
 * see {@link Version1Store}) opened by the current code: V2..V4 are applied on open, and the run,
 * left with its write intent pending, resumes, executes the write once and completes.
 */
class SqliteVersion1UpgradeTest {
  @TempDir Path dir;

  @Test
  void aVersion1StoreIsMigratedOnOpenAndItsRunResumesToCompletionWithTheWriteOnce()
      throws Exception {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    Path current = dir.resolve("current.db");
    Path old = dir.resolve("v1.db");
    Upgrade u = new Upgrade(clock);
    try (JdbcStore store = JdbcStore.open(Database.sqlite(current), TestStores.options(clock))) {
      u.leaveAPendingWrite(store, store);
    }
    try (Connection from = DriverManager.getConnection("jdbc:sqlite:" + current);
        Connection to = DriverManager.getConnection("jdbc:sqlite:" + old)) {
      Database db = Database.sqlite(old);
      Version1Store.createAtVersion1(to, Dialect.of(db).migrations(db).get(0).statements());
      Version1Store.copyAsVersion1(from, to, u.keyRing());
    }
    assertThat(Sql.one(old, "SELECT MAX(version) FROM ratchet_schema")).isEqualTo("1");
    assertThat(Sql.one(old, "SELECT COUNT(*) FROM ratchet_records WHERE body LIKE '%record_auth%'"))
        .isEqualTo("0");

    try (JdbcStore store =
        JdbcStore.open(
            Database.sqlite(old), TestStores.options(clock).withOpenMode(OpenMode.MUST_EXIST))) {
      assertThat(Sql.column(old, "SELECT version FROM ratchet_schema ORDER BY version"))
          .containsExactly(
              "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15");
      u.resumeToCompletion(store, store);
    }
  }

  /** The run on both sides of the upgrade; also used by the PostgreSQL test. */
  static final class Upgrade {
    private final ManualClock clock;
    private RuntimeFixture f;
    private InMemoryWorkspace ws;
    private String key;

    Upgrade(ManualClock clock) {
      this.clock = clock;
    }

    dev.ratchet.sign.KeyRing keyRing() {
      return f.keyRing;
    }

    /** A read, then a write proposed (its intent durable) and never executed: the crash window. */
    void leaveAPendingWrite(CheckpointStore store, LeaseStore leases) {
      f = new RuntimeFixture(41, clock, store, leases);
      ws = f.workspace();
      try (Run run = f.ratchet("v1-worker").start(f.task(), "run-1", ws)) {
        run.apply(
            run.action("a1", "read_file", JsonObject.builder().put("path", "app.py").build()));
        key =
            run.propose(
                    run.action(
                        "a2",
                        "write_file",
                        JsonObject.builder()
                            .put("path", "app.py")
                            .put("content", RuntimeFixture.FIXED)
                            .build()))
                .action()
                .idempotencyKey();
        assertThat(run.state().pending()).isNotNull();
        assertThat(run.state().keySalt()).isNotNull();
      }
      assertThat(ws.effects(key)).isZero();
    }

    /** Resume on the upgraded store: the pending write executes once, then verify and finish. */
    void resumeToCompletion(CheckpointStore store, LeaseStore leases) {
      RuntimeFixture g = new RuntimeFixture(41, clock, store, leases);
      try (Run run = g.ratchet("current-worker").resume(f.task(), "run-1", ws)) {
        assertThat(run.state().schemaVersion()).isEqualTo(1);
        assertThat(run.state().keySalt()).isNull();
        assertThat(ws.effects(key)).isEqualTo(1);
        assertThat(run.state().pending()).isNull();
        run.apply(
            run.action("a3", "run_tests", JsonObject.builder().put("target", "unit").build()));
        run.apply(run.action("a4", "finish", JsonObject.EMPTY));
        assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
        assertThat(run.state().schemaVersion()).isEqualTo(1);
      }
      assertThat(ws.effects(key)).isEqualTo(1);
      assertThat(ws.ledger()).hasSize(1);
      assertThat(ws.files()).containsEntry("app.py", RuntimeFixture.FIXED);
      // The full readers (verify, inspect) accept the mixed chain: version-1 records without MACs,
      // then records the current code sealed, all under the signed version-1 head.
      RunState s = g.ratchet("auditor").verify(f.task(), "run-1", ws);
      assertThat(s.phase()).isEqualTo(Phase.COMPLETED);
      for (RecordSet set : RecordSet.values()) {
        TraceAudit.verify(store, s.taskId(), "run-1", set, s.head(set)).requireIntact();
      }
    }
  }
}
