package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Schema version 5's {@code ratchet_commit} (ADR 0043) as version 19 leaves it (D34, ADR 0045),
 * called as the worker role: every refusal (wrong token, wrong fence, stale generation, a repeated
 * sequence or key) writes nothing, and the holder's commit through the store still moves the run
 * forward by one. What the function no longer checks (links, the content's digest) is written and
 * then refused by the readers.
 */
@RequiresPostgres
class PostgresOneCallCommitTest {
  private static final String CALL =
      "SELECT o_rows FROM ratchet_commit(?, ?, ?, ?, ?, ?, ?, ?, ?, 3, ?, ?, ?, ?, ?, ?)";

  private static PgSchema schema;
  private JdbcStore store;
  private TestRun run;
  private Connection worker;

  @BeforeAll
  static void createSchema() {
    schema = PgSchema.create();
  }

  @AfterAll
  static void dropSchema() {
    if (schema != null) {
      schema.close();
    }
  }

  @BeforeEach
  void threeGenerations() throws SQLException {
    schema.truncate();
    store = schema.openWorker();
    run = new TestRun(store, store, "run-a").commits(3, 2);
    worker = Postgres.connect(Postgres.URL, Postgres.WORKER);
    worker.setSchema(schema.name);
  }

  @AfterEach
  void close() throws SQLException {
    worker.close();
    store.close();
  }

  /** Calls the function as the worker with {@code r}, overriding token, version and expected. */
  private Object call(CommitRequest r, byte[] token, long leaseVersion, long expected)
      throws SQLException {
    List<StoredRecord> recs = r.records();
    try (PreparedStatement ps = worker.prepareStatement(CALL)) {
      ps.setString(1, r.scope().taskId());
      ps.setString(2, r.scope().runId());
      ps.setString(3, r.scope().environmentInstanceId());
      ps.setLong(4, expected);
      ps.setString(5, Canonical.sha256Hex(r.checkpoint()));
      ps.setString(6, r.checkpoint());
      ps.setString(7, r.fence().owner());
      ps.setLong(8, leaseVersion);
      ps.setBytes(9, token);
      ps.setArray(10, worker.createArrayOf("text", map(recs, x -> x.set().wireName())));
      ps.setArray(
          11, worker.createArrayOf("bigint", recs.stream().map(x -> x.sequence()).toArray()));
      ps.setArray(12, worker.createArrayOf("text", map(recs, StoredRecord::key)));
      ps.setArray(
          13,
          worker.createArrayOf("text", map(recs, x -> Canonical.string(new JsonString(x.key())))));
      ps.setArray(14, worker.createArrayOf("text", map(recs, StoredRecord::body)));
      ps.setArray(15, worker.createArrayOf("text", map(recs, StoredRecord::chain)));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getObject(1);
      }
    }
  }

  private static Object[] map(
      List<StoredRecord> recs, java.util.function.Function<StoredRecord, String> f) {
    return recs.stream().map(f).toArray();
  }

  private byte[] token() {
    return run.lease.requireToken().secret();
  }

  private long count(String table) throws SQLException {
    try (PreparedStatement ps = worker.prepareStatement("SELECT count(*) FROM " + table);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Nothing moved: generation 3, six trace records, the same content and generation rows. */
  /** The content and generation-log rows at one moment. */
  private record Rows(long checkpoints, long generations) {}

  private Rows rows() throws SQLException {
    return new Rows(count("ratchet_checkpoints"), count("ratchet_generations"));
  }

  private void assertNothingWrittenSince(Rows before) throws SQLException {
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(3);
    assertThat(count("ratchet_records")).isEqualTo(6);
    assertThat(rows()).isEqualTo(before);
  }

  private void assertHolderStillCommits() {
    assertThat(store.commit(run.next(1))).isEqualTo(new CommitResult.Committed(4));
    assertThat(store.records(TestRun.TASK, "run-a", RecordSet.TRACE, 1, 100)).hasSize(7);
  }

  /**
   * The store's commit goes through {@code ratchet_commit} alone: with the version-2 write
   * functions revoked from the worker it still commits, and still explains a stale generation and a
   * wrong fence (reads only after the refused call).
   */
  @Test
  void theStoreCommitsThroughTheOneCallFunctionAlone() {
    List<String> old =
        List.of(
            "ratchet_advance(text, text, text, bigint, text, text, bigint, bytea, integer)",
            "ratchet_append(text, text, text, bigint, text, text, text, text, bigint, bytea)",
            "ratchet_put_content(text, text, text, bigint, text, text, bigint, bytea)",
            "ratchet_prune_content(text, text, bigint, text[], text, bigint, bytea)");
    schema.exec(
        old.stream()
            .map(
                f ->
                    "REVOKE EXECUTE ON FUNCTION "
                        + schema.name
                        + "."
                        + f
                        + " FROM "
                        + Postgres.WORKER)
            .toArray(String[]::new));
    try {
      CommitRequest good = run.next(2);
      CommitRequest stale =
          new CommitRequest(good.scope(), 2, run.lease, good.checkpoint(), good.records());
      assertThat(store.commit(stale)).isEqualTo(new CommitResult.LostRace(3));
      dev.ratchet.store.Lease later =
          new dev.ratchet.store.Lease(
              run.lease.runId(),
              run.lease.owner(),
              run.lease.version() + 1,
              run.lease.expiresAt(),
              run.lease.token());
      CommitRequest fenced =
          new CommitRequest(good.scope(), 3, later, good.checkpoint(), good.records());
      assertThat(store.commit(fenced)).isInstanceOf(CommitResult.Fenced.class);
      assertThat(store.commit(good)).isEqualTo(new CommitResult.Committed(4));
      assertThat(store.records(TestRun.TASK, "run-a", RecordSet.TRACE, 1, 100)).hasSize(8);
    } finally {
      schema.exec(
          old.stream()
              .map(
                  f ->
                      "GRANT EXECUTE ON FUNCTION "
                          + schema.name
                          + "."
                          + f
                          + " TO "
                          + Postgres.WORKER)
              .toArray(String[]::new));
    }
  }

  @Test
  void theHoldersOwnCallCommitsEverythingAtOnce() throws SQLException {
    CommitRequest r = run.next(2);
    assertThat(call(r, token(), run.lease.version(), 3)).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(4);
    assertThat(count("ratchet_records")).isEqualTo(8);
  }

  @Test
  void aWrongTokenWritesNothing() throws SQLException {
    assertEachRefusedWithoutWriting(
        r ->
            List.of(
                () -> call(r, new byte[32], run.lease.version(), 3),
                () -> call(r, run.lease.requireToken().hash().getBytes(), run.lease.version(), 3)));
  }

  @Test
  void aWrongFenceWritesNothing() throws SQLException {
    assertEachRefusedWithoutWriting(
        r ->
            List.of(
                () -> call(r, token(), run.lease.version() - 1, 3),
                () -> call(r, token(), run.lease.version() + 1, 3)));
  }

  @Test
  void aStaleOrFutureGenerationWritesNothing() throws SQLException {
    assertEachRefusedWithoutWriting(
        r ->
            List.of(
                () -> call(r, token(), run.lease.version(), 0),
                () -> call(r, token(), run.lease.version(), 2),
                () -> call(r, token(), run.lease.version(), 4)));
  }

  /** One call of the function as the worker, which may be refused by the server. */
  @FunctionalInterface
  private interface WorkerCall {
    Object rows() throws SQLException;
  }

  /**
   * Each call, made against the holder's next request, is refused (0 rows); nothing is written, and
   * the holder still commits afterwards.
   */
  private void assertEachRefusedWithoutWriting(
      java.util.function.Function<CommitRequest, List<WorkerCall>> calls) throws SQLException {
    Rows before = rows();
    List<WorkerCall> refused = calls.apply(run.next(2));
    for (int i = 0; i < refused.size(); i++) {
      assertThat(refused.get(i).rows()).as("call " + i).isEqualTo(0);
    }
    assertNothingWrittenSince(before);
    assertHolderStillCommits();
  }

  /**
   * Since version 19 (D34, ADR 0045) the commit no longer recomputes links: a record off its chain
   * (an edited body under the honest link, a gap) is written, and the full reader refuses it
   * against the signed head, as it refuses the same rows written by raw SQL (the tamper campaign).
   */
  @Test
  void aRecordOffItsChainIsWrittenAndTheAuditAgainstTheSignedHeadRefusesIt() throws SQLException {
    StoredRecord honest = run.next(1).records().get(0);
    List<StoredRecord> forged =
        List.of(
            new StoredRecord(honest.set(), honest.sequence(), honest.key(), "{}", honest.chain()),
            new StoredRecord(
                honest.set(), honest.sequence() + 5, "x", honest.body(), honest.chain()));
    List<AuditReport.Kind> found = List.of(AuditReport.Kind.EDITED, AuditReport.Kind.MISSING);
    for (int i = 0; i < forged.size(); i++) {
      if (i > 0) {
        close();
        threeGenerations();
      }
      CommitRequest good = run.next(1);
      SetHead signed = RecordChain.advance(run.trace, good.records().get(0));
      CommitRequest r =
          new CommitRequest(good.scope(), 3, run.lease, good.checkpoint(), List.of(forged.get(i)));
      assertThat(call(r, token(), run.lease.version(), 3))
          .as(forged.get(i).toString())
          .isEqualTo(1);
      AuditReport audit = TraceAudit.verify(store, TestRun.TASK, "run-a", signed);
      assertThat(audit.intact()).as(forged.get(i).toString()).isFalse();
      assertThat(audit.findings())
          .extracting(AuditReport.Finding::kind)
          .as(forged.get(i).toString())
          .contains(found.get(i));
    }
  }

  /** The primary key still refuses a repeated sequence: the whole call rolls back. */
  @Test
  void aRepeatedSequenceRollsTheWholeCallBack() throws SQLException {
    Rows before = rows();
    CommitRequest good = run.next(1);
    StoredRecord first = good.records().get(0);
    StoredRecord repeat = new StoredRecord(first.set(), 3, "new-key", first.body(), first.chain());
    CommitRequest r =
        new CommitRequest(good.scope(), 3, run.lease, good.checkpoint(), List.of(repeat));
    Throwable raw = catchThrowable(() -> call(r, token(), run.lease.version(), 3));
    assertThat(((SQLException) raw).getSQLState()).isEqualTo("23505");
    assertNothingWrittenSince(before);
    RatchetException e = (RatchetException) catchThrowable(() -> store.commit(r));
    assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
    assertNothingWrittenSince(before);
    assertHolderStillCommits();
  }

  @Test
  void aChainedRecordThatRepeatsAKeyRollsTheWholeCallBack() throws SQLException {
    Rows before = rows();
    StoredRecord repeat =
        RecordChain.append(run.trace, RecordSet.TRACE, "2", "{\"sequence\":7}"); // key 2 is held
    CommitRequest good = run.next(1);
    CommitRequest r =
        new CommitRequest(good.scope(), 3, run.lease, good.checkpoint(), List.of(repeat));
    Throwable raw = catchThrowable(() -> call(r, token(), run.lease.version(), 3));
    assertThat(((SQLException) raw).getSQLState()).isEqualTo("23505");
    assertNothingWrittenSince(before);
    RatchetException e = (RatchetException) catchThrowable(() -> store.commit(r));
    assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(e).hasMessageContaining("already exists").hasMessageContaining("trace, 2)");
    assertNothingWrittenSince(before);
    assertHolderStillCommits();
  }

  /**
   * Since version 19 (D34, ADR 0045) the commit no longer re-hashes the content: content that does
   * not hash to the mark's digest is written, and the load refuses it ({@code CHECKPOINT}), as it
   * refuses content edited behind the store's back.
   */
  @Test
  void contentThatDoesNotHashToItsDigestIsWrittenAndRefusedAtLoad() throws SQLException {
    CommitRequest good = run.next(1);
    try (PreparedStatement ps =
        worker.prepareStatement(
            "SELECT o_rows FROM ratchet_commit('task-1', 'run-a', 'env-1', 3, repeat('0', 64),"
                + " '{}', ?, ?, ?, 3, ARRAY[]::text[], ARRAY[]::bigint[], ARRAY[]::text[],"
                + " ARRAY[]::text[], ARRAY[]::text[], ARRAY[]::text[])")) {
      ps.setString(1, good.fence().owner());
      ps.setLong(2, good.fence().leaseVersion());
      ps.setBytes(3, token());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
    }
    Throwable t = catchThrowable(() -> store.load(TestRun.TASK, "run-a"));
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
  }
}
