package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retention contract with the mark in PostgreSQL and the content in SQLite (D7), and a split
 * commit that reads only the live part of its run's log however long the run's pruned history
 * (schema version 11).
 */
@RequiresPostgres
class PostgresSplitRetentionTest extends RetentionContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  @TempDir Path dir;
  private PgSchema schema;
  private PgWorkerSession worker;
  private Path content;

  @BeforeEach
  void connect() throws SQLException {
    schema = SCHEMA.get();
    schema.truncate();
    worker = new PgWorkerSession(schema);
    content = TestStores.file(dir, "content");
  }

  @AfterEach
  void close() throws SQLException {
    worker.close();
  }

  @Override
  protected StoreOptions options() {
    return PgSchema.options().withOpenMode(OpenMode.CREATE);
  }

  @Override
  protected JdbcStore open(StoreOptions options) {
    return JdbcStore.split(schema.worker(), Database.sqlite(content), options);
  }

  @Override
  protected long rows(String table, String runId) throws SQLException {
    return "ratchet_checkpoints".equals(table)
        ? Sql.count(content, table, runId)
        : worker.rows(table, runId);
  }

  /**
   * A split commit runs {@code ratchet_advance}, then reads the digests its log retains for the
   * content side's prune. Both read from the run's first generation before version 11, so under a
   * snapshot held open they walked every log row the run had pruned. Measured through the store:
   * the blocks of the log and its index that 20 commits read, from generation 20 and from 2,000,
   * without autovacuum. The store's backends report their counters when they exit, so each measure
   * closes the store and waits for them to go.
   */
  @Test
  void twentyCommitsReadAsManyLogBlocksAfterThousandsOfPrunedGenerationsAsAfterTwenty()
      throws Exception {
    schema.exec(
        "ALTER TABLE " + schema.name + ".ratchet_generations SET (autovacuum_enabled = false)");
    TestRun run;
    try (JdbcStore s = open(options())) {
      run = new TestRun(s, s, "run-1");
      run.commitsOn(s, 19, 0);
    }
    HeldSnapshot held = HeldSnapshot.take(); // nothing deleted from now on can be removed
    try {
      long early = logBlocksOfTwentyCommits(run);
      try (JdbcStore s = open(options())) {
        run.commitsOn(s, 1_960, 0);
      }
      long late = logBlocksOfTwentyCommits(run);
      assertThat(run.generation).isEqualTo(2_019);
      // At most 8 blocks more a commit: the log's index is a level deeper at 2,000 rows (each of
      // a commit's few index descents reads one more block). Walking the pruned log cost hundreds.
      assertThat(late)
          .as("log blocks 20 split commits read from generation 2,000 (from 20: %d)", early)
          .isLessThanOrEqualTo(early + 20 * 8);
    } finally {
      held.close();
    }
  }

  private long logBlocksOfTwentyCommits(TestRun run) throws Exception {
    long before = logBlocksReported();
    try (JdbcStore s = open(options())) {
      run.commitsOn(s, 20, 0);
    }
    return logBlocksReported() - before;
  }

  /** Blocks of the log and its index read by backends that reported them, once the store's left. */
  private long logBlocksReported() throws Exception {
    try (Connection admin = Postgres.admin()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (otherWorkerBackends(admin) > 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the store's backends did not exit within 20 s");
        }
        Thread.sleep(20);
      }
      return BlocksFetched.reported(
          admin, schema.name, "ratchet_generations", "ratchet_generations_pkey");
    }
  }

  private long otherWorkerBackends(Connection admin) throws SQLException {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT count(*) FROM pg_stat_activity WHERE usename = ? AND pid <> ?")) {
      ps.setString(1, Postgres.WORKER);
      ps.setInt(2, worker.pid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
