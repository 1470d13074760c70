package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The retention contract on one PostgreSQL database, and a commit whose pruning reads only live
 * rows however long the run's pruned history, even with no vacuum to remove what earlier commits
 * deleted (schema version 10).
 */
@RequiresPostgres
class PostgresRetentionTest extends RetentionContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  private PgSchema schema;
  private PgWorkerSession worker;

  @BeforeEach
  void connect() throws SQLException {
    schema = SCHEMA.get();
    schema.truncate();
    worker = new PgWorkerSession(schema);
  }

  @AfterEach
  void close() throws SQLException {
    worker.close();
  }

  @Override
  protected StoreOptions options() {
    return PgSchema.options();
  }

  @Override
  protected JdbcStore open(StoreOptions options) {
    return JdbcStore.open(schema.worker(), options);
  }

  @Override
  protected long rows(String table, String runId) throws SQLException {
    return worker.rows(table, runId);
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
    HeldSnapshot held = HeldSnapshot.take(); // nothing deleted from now on can be removed
    try {
      long early = blocksOfOneCommit(run);
      for (int i = 0; i < 1_980; i++) {
        call(run);
      }
      long late = blocksOfOneCommit(run);
      assertThat(late)
          .as("blocks one commit reads at generation 2,000 (at 20: %d)", early)
          .isLessThanOrEqualTo(early + 8);
    } finally {
      held.close();
    }
  }

  /**
   * The blocks of the log and content tables and their indexes that one commit reads: the backend's
   * counters before and after the call, inside one transaction (counters a backend has not yet
   * reported only move between transactions).
   */
  private long blocksOfOneCommit(TestRun run) throws SQLException {
    worker.connection.setAutoCommit(false);
    try {
      long before = blocksSoFar();
      call(run);
      return blocksSoFar() - before;
    } finally {
      worker.connection.commit();
      worker.connection.setAutoCommit(true);
    }
  }

  private long blocksSoFar() throws SQLException {
    return BlocksFetched.inThisTransaction(
        worker.connection,
        schema.name,
        "ratchet_generations",
        "ratchet_generations_pkey",
        "ratchet_checkpoints",
        "ratchet_checkpoints_pkey");
  }

  /**
   * The run's next commit, a checkpoint without records, straight through the function, keeping the
   * store's default of three older generations.
   */
  private void call(TestRun run) throws SQLException {
    String body = "{\"generation\":" + (run.generation + 1) + "}";
    try (PreparedStatement ps =
        worker.connection.prepareStatement(
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
