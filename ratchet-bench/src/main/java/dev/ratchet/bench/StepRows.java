package dev.ratchet.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Figure 4's bound: the rows a write step's commit leaves in PostgreSQL, written alone. One
 * statement per step advances the run's mark by compare-and-set, inserts a checkpoint row of the
 * measured size and the measured number of records of the measured size, into tables keyed as the
 * store's are (records: primary key and key index). None of the store's checks (lease, token,
 * digests, chains), no generation log, no pruning, no runtime: no correct store of this data model
 * writes less per step, so this rate over the raw insert's bounds what any implementation of it
 * could reach on this server.
 *
 * <p>One instance is one connection, used by one thread.
 */
final class StepRows implements AutoCloseable {
  private static final String[] SETS = {"trace", "action_ids", "receipts"};

  private final Connection c;
  private final PreparedStatement step;
  private final String run;
  private final String checkpoint;
  private final String recordBody;
  private final int records;
  private long generation;
  private long sequence;

  private StepRows(
      Connection c, String schema, String run, String checkpoint, int records, int bytes)
      throws SQLException {
    this.c = c;
    this.run = run;
    this.checkpoint = checkpoint;
    this.records = records;
    this.recordBody = "r".repeat(Math.max(1, bytes));
    c.setAutoCommit(true);
    try (Statement s = c.createStatement()) {
      s.execute("SET synchronous_commit = on");
      s.execute("INSERT INTO " + schema + ".bench_step_marks VALUES ('" + run + "', 0, '')");
    }
    this.step =
        c.prepareStatement(
            "WITH m AS (UPDATE "
                + schema
                + ".bench_step_marks SET generation = ?, content_digest = ?"
                + " WHERE run_id = ? AND generation = ? RETURNING run_id),"
                + " k AS (INSERT INTO "
                + schema
                + ".bench_step_checkpoints SELECT run_id, ?, ?, ? FROM m RETURNING run_id)"
                + " INSERT INTO "
                + schema
                + ".bench_step_records SELECT k.run_id, s, q, key, b, h FROM k,"
                + " unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[])"
                + " AS u(s, q, key, b, h)");
  }

  /** The tables, in {@code schema}, keyed as the store's (docs/store.md). */
  static void createTables(Connection owner, String schema) throws SQLException {
    try (Statement s = owner.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + schema
              + ".bench_step_marks (run_id TEXT PRIMARY KEY, generation BIGINT NOT NULL,"
              + " content_digest TEXT NOT NULL)");
      s.execute(
          "CREATE TABLE "
              + schema
              + ".bench_step_checkpoints (run_id TEXT NOT NULL, generation BIGINT NOT NULL,"
              + " content_digest TEXT NOT NULL, body TEXT NOT NULL,"
              + " PRIMARY KEY (run_id, generation))");
      s.execute(
          "CREATE TABLE "
              + schema
              + ".bench_step_records (run_id TEXT NOT NULL, set_name TEXT NOT NULL,"
              + " sequence BIGINT NOT NULL, record_key TEXT NOT NULL, body TEXT NOT NULL,"
              + " chain TEXT NOT NULL, PRIMARY KEY (run_id, set_name, sequence))");
      s.execute(
          "CREATE UNIQUE INDEX bench_step_records_by_key ON "
              + schema
              + ".bench_step_records (run_id, set_name, record_key)");
    }
  }

  /** A client for run {@code run}: {@code records} records of {@code bytes} bytes per step. */
  static StepRows open(
      Connection c, String schema, String run, String checkpoint, int records, int bytes)
      throws SQLException {
    if (records < 1) {
      throw new IllegalArgumentException("records per step must be at least 1, was " + records);
    }
    return new StepRows(c, schema, run, checkpoint, records, bytes);
  }

  /** What each step writes: "a mark, a checkpoint of C B and R records of ≈ B B". */
  String shape() {
    return String.format(
        Locale.ROOT,
        "a mark, a checkpoint of %d B and %d records of ≈ %d B",
        checkpoint.length(),
        records,
        recordBody.length());
  }

  /** One step's rows, one durable auto-committed statement. */
  void commitOne() throws SQLException {
    long g = generation + 1;
    String digest =
        String.format(Locale.ROOT, "%064x", g); // 64 hex characters, as a SHA-256 digest's
    String[] sets = new String[records];
    Long[] sequences = new Long[records];
    String[] keys = new String[records];
    String[] bodies = new String[records];
    String[] chains = new String[records];
    for (int i = 0; i < records; i++) {
      sequence++;
      sets[i] = SETS[i % SETS.length];
      sequences[i] = sequence; // one counter for all sets: unique within each, as the store's
      keys[i] = sets[i] + "-" + sequence;
      bodies[i] = recordBody;
      chains[i] = digest;
    }
    step.setLong(1, g);
    step.setString(2, digest);
    step.setString(3, run);
    step.setLong(4, generation);
    step.setLong(5, g);
    step.setString(6, digest);
    step.setString(7, checkpoint);
    setArray(8, "text", sets);
    setArray(9, "bigint", sequences);
    setArray(10, "text", keys);
    setArray(11, "text", bodies);
    setArray(12, "text", chains);
    if (step.executeUpdate() != records) {
      throw new IllegalStateException("step rows of " + run + ": the mark did not advance");
    }
    generation = g;
  }

  private void setArray(int index, String type, Object[] values) throws SQLException {
    Array a = c.createArrayOf(type, values);
    step.setArray(index, a);
  }

  @Override
  public void close() throws SQLException {
    c.close();
  }
}
