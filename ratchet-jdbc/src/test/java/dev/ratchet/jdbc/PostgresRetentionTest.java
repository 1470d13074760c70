package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RunScope;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention on PostgreSQL (schema versions 10 and 11): the current checkpoint and exactly N older
 * ones, N read at each commit, and a commit whose pruning reads only live rows however long the
 * run's pruned history, even with no vacuum to remove what earlier commits deleted: in one database
 * (one call, version 10) and with the content in another (the split store, version 11).
 */
@RequiresPostgres
class PostgresRetentionTest {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  private PgSchema schema;
  private Connection worker;
  private int workerPid; // this test's own worker connection, which stays open

  @BeforeEach
  void connect() throws SQLException {
    schema = SCHEMA.get();
    schema.truncate();
    worker = Postgres.connect(Postgres.URL, Postgres.WORKER);
    worker.setSchema(schema.name);
    try (PreparedStatement ps = worker.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      workerPid = rs.getInt(1);
    }
  }

  @AfterEach
  void close() throws SQLException {
    worker.close();
  }

  private JdbcStore open(int retainOlder) {
    return JdbcStore.open(schema.worker(), PgSchema.options().withRetainOlder(retainOlder));
  }

  private static List<Long> generations(JdbcStore s, String runId) {
    return s.checkpoints(TestRun.TASK, runId).stream().map(RetainedCheckpoint::generation).toList();
  }

  private long rows(String table, String runId) throws SQLException {
    try (PreparedStatement ps =
        worker.prepareStatement("SELECT count(*) FROM " + table + " WHERE run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  void eachConfiguredCountIsKeptExactly() throws SQLException {
    for (int n : new int[] {0, 1, 3}) {
      String runId = "run-" + n;
      try (JdbcStore s = open(n)) {
        new TestRun(s, s, runId).commits(12, 1);
        assertThat(generations(s, runId))
            .as("retainOlder=" + n)
            .hasSize(n + 1)
            .first()
            .isEqualTo(12L);
      }
      assertThat(rows("ratchet_checkpoints", runId))
          .as("content, retainOlder=" + n)
          .isEqualTo(n + 1);
      assertThat(rows("ratchet_generations", runId)).as("log, retainOlder=" + n).isEqualTo(n + 1);
    }
  }

  @Test
  void aLowerCountPrunesTheWholeRangeBelowItAtTheNextCommitAndAHigherOneLetsTheWindowGrow()
      throws SQLException {
    TestRun run;
    try (JdbcStore s = open(5)) {
      run = new TestRun(s, s, "run-1").commits(10, 1);
      assertThat(generations(s, "run-1")).containsExactly(10L, 9L, 8L, 7L, 6L, 5L);
    }
    try (JdbcStore s = open(1)) {
      commit(s, run, "{\"generation\":11}");
      assertThat(generations(s, "run-1")).containsExactly(11L, 10L);
    }
    assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(2);
    assertThat(rows("ratchet_generations", "run-1")).isEqualTo(2);
    // Raised again: nothing is pruned until the window has grown to the new count.
    try (JdbcStore s = open(3)) {
      commit(s, run, "{\"generation\":12}");
      commit(s, run, "{\"generation\":13}");
      assertThat(generations(s, "run-1")).containsExactly(13L, 12L, 11L, 10L);
      commit(s, run, "{\"generation\":14}");
      assertThat(generations(s, "run-1")).containsExactly(14L, 13L, 12L, 11L);
    }
    assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(4);
  }

  @Test
  void contentThatARetainedGenerationStillNamesIsKept() throws SQLException {
    try (JdbcStore s = open(1)) {
      TestRun run = new TestRun(s, s, "run-1");
      for (String body : List.of("{\"a\":1}", "{\"b\":2}", "{\"a\":1}")) {
        commit(s, run, body);
      }
      // Generation 1 left the window, but generation 3 has the same content.
      assertThat(generations(s, "run-1")).containsExactly(3L, 2L);
      assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(2);
      commit(s, run, "{\"c\":3}");
      assertThat(s.checkpoints(TestRun.TASK, "run-1"))
          .extracting(RetainedCheckpoint::checkpoint)
          .containsExactly("{\"c\":3}", "{\"a\":1}");
    }
    assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(2);
  }

  private static void commit(JdbcStore s, TestRun run, String body) {
    CommitRequest r =
        new CommitRequest(
            new RunScope(TestRun.TASK, run.runId, TestRun.ENV),
            run.generation,
            run.lease,
            body,
            List.of());
    assertThat(s.commit(r)).isEqualTo(new CommitResult.Committed(run.generation + 1));
    run.accepted(r);
  }

  /**
   * PostgreSQL keeps a deleted row in its table and indexes until no transaction can still see it
   * and a vacuum or a later scan removes it. Version 8's commit pruned with open-ended ranges and
   * so, while any other transaction was open (under load, always some), walked every generation the
   * run had pruned before. Here one transaction holds its snapshot open throughout, autovacuum is
   * off for the two tables, and the blocks one commit reads in the generation log, the content and
   * their indexes are counted at generation 20 and at generation 2,000.
   */
  @Test
  void aCommitReadsAsManyBlocksAfterThousandsOfPrunedGenerationsAsAfterTwenty()
      throws SQLException {
    schema.exec(
        "ALTER TABLE " + schema.name + ".ratchet_generations SET (autovacuum_enabled = false)",
        "ALTER TABLE " + schema.name + ".ratchet_checkpoints SET (autovacuum_enabled = false)");
    TestRun run;
    try (JdbcStore s = schema.openWorker()) {
      run = new TestRun(s, s, "run-1").commits(19, 0);
    }
    try (Connection reader = Postgres.admin()) {
      reader.setAutoCommit(false);
      reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try (PreparedStatement ps = reader.prepareStatement("SELECT count(*) FROM pg_class");
          ResultSet rs = ps.executeQuery()) {
        rs.next(); // the snapshot is taken: nothing deleted from now on can be removed
      }
      long early = blocksOfOneCommit(run);
      for (int i = 0; i < 1_980; i++) {
        call(run);
      }
      long late = blocksOfOneCommit(run);
      reader.rollback();
      assertThat(late)
          .as("blocks one commit reads at generation 2,000 (at 20: %d)", early)
          .isLessThanOrEqualTo(early + 8);
    }
  }

  /**
   * A split store (the mark in PostgreSQL, the content in SQLite, D7) commits with {@code
   * ratchet_advance} and then reads the digests its log retains, to prune the content side. Both
   * pruned with open-ended ranges before version 11. Measured through the store itself: the blocks
   * of the log and its index that 20 of its commits read, at generation 20 and at 2,000, under a
   * snapshot held open throughout and without autovacuum. The store's backends report their
   * counters when they exit, so each measure closes the store and waits for them to go.
   */
  @Test
  void aSplitStoresCommitsReadAsManyLogBlocksAfterThousandsOfPrunedGenerationsAsAfterTwenty(
      @TempDir Path dir) throws Exception {
    schema.exec(
        "ALTER TABLE " + schema.name + ".ratchet_generations SET (autovacuum_enabled = false)");
    Database content = Database.sqlite(TestStores.file(dir, "content"));
    TestRun run;
    try (JdbcStore s = split(content)) {
      run = new TestRun(s, s, "run-1");
      commitsThrough(s, run, 19);
    }
    try (Connection reader = Postgres.admin()) {
      reader.setAutoCommit(false);
      reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try (PreparedStatement ps = reader.prepareStatement("SELECT count(*) FROM pg_class");
          ResultSet rs = ps.executeQuery()) {
        rs.next(); // the snapshot is taken: nothing deleted from now on can be removed
      }
      long early = logBlocksOfTwentySplitCommits(content, run);
      try (JdbcStore s = split(content)) {
        commitsThrough(s, run, 1_960);
      }
      long late = logBlocksOfTwentySplitCommits(content, run);
      reader.rollback();
      assertThat(run.generation).isEqualTo(2_019);
      assertThat(late)
          .as("log blocks 20 split commits read from generation 2,000 (from 20: %d)", early)
          .isLessThanOrEqualTo(early + 40);
    }
  }

  private JdbcStore split(Database content) {
    return JdbcStore.split(
        schema.worker(), content, PgSchema.options().withOpenMode(OpenMode.CREATE));
  }

  private static void commitsThrough(JdbcStore s, TestRun run, int n) {
    for (int i = 0; i < n; i++) {
      CommitRequest r = run.next(0);
      assertThat(s.commit(r)).isEqualTo(new CommitResult.Committed(run.generation + 1));
      run.accepted(r);
    }
  }

  private long logBlocksOfTwentySplitCommits(Database content, TestRun run) throws Exception {
    long before = logBlocksReported();
    try (JdbcStore s = split(content)) {
      commitsThrough(s, run, 20);
    }
    return logBlocksReported() - before;
  }

  /** Blocks of the log and its index read by backends that reported them, once the store's left. */
  private long logBlocksReported() throws Exception {
    try (Connection admin = Postgres.admin()) {
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (otherWorkerBackends(admin) > 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the store's backends did not exit within 20 s");
        }
        Thread.sleep(20);
      }
      try (PreparedStatement ps =
          admin.prepareStatement(
              "SELECT sum(pg_stat_get_blocks_fetched(c.oid)) FROM pg_class c"
                  + " WHERE c.relnamespace = ?::regnamespace"
                  + " AND c.relname IN ('ratchet_generations', 'ratchet_generations_pkey')")) {
        ps.setString(1, schema.name);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    }
  }

  private long otherWorkerBackends(Connection admin) throws SQLException {
    try (PreparedStatement ps =
        admin.prepareStatement(
            "SELECT count(*) FROM pg_stat_activity WHERE usename = ? AND pid <> ?")) {
      ps.setString(1, Postgres.WORKER);
      ps.setInt(2, workerPid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * The blocks of the log and content tables and their indexes that one commit reads: the backend's
   * counters before and after the call, inside one transaction (counters a backend has not yet
   * reported only move between transactions).
   */
  private long blocksOfOneCommit(TestRun run) throws SQLException {
    worker.setAutoCommit(false);
    try {
      long before = blocksSoFar();
      call(run);
      return blocksSoFar() - before;
    } finally {
      worker.commit();
      worker.setAutoCommit(true);
    }
  }

  private long blocksSoFar() throws SQLException {
    try (PreparedStatement ps =
        worker.prepareStatement(
            "SELECT sum(pg_stat_get_xact_blocks_fetched(c.oid)) FROM pg_class c"
                + " WHERE c.relnamespace = ?::regnamespace AND c.relname IN"
                + " ('ratchet_generations', 'ratchet_generations_pkey',"
                + " 'ratchet_checkpoints', 'ratchet_checkpoints_pkey')")) {
      ps.setString(1, schema.name);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * The run's next commit, a checkpoint without records, straight through the function, keeping the
   * store's default of three older generations.
   */
  private void call(TestRun run) throws SQLException {
    String body = "{\"generation\":" + (run.generation + 1) + "}";
    try (PreparedStatement ps =
        worker.prepareStatement(
            "SELECT o_rows FROM ratchet_commit(?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " '{}', '{}', '{}', '{}', '{}', '{}')")) {
      ps.setString(1, TestRun.TASK);
      ps.setString(2, run.runId);
      ps.setString(3, TestRun.ENV);
      ps.setLong(4, run.generation);
      ps.setString(5, Canonical.sha256Hex(body));
      ps.setString(6, body);
      ps.setString(7, run.fence.owner());
      ps.setLong(8, run.fence.leaseVersion());
      ps.setBytes(9, run.lease.requireToken().secret());
      ps.setInt(10, PgSchema.options().retainOlder());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).as("commit of generation %d", run.generation + 1).isEqualTo(1);
      }
    }
    run.generation++;
  }
}
