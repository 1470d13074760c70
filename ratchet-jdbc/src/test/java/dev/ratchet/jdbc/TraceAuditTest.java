package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.AuditReport.Kind;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.Rules;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace as an audit log: a run commits 12 events; then the database is edited behind the
 * store's back, as someone with the file and sqlite3 could, and the audit against the signed count
 * and head must name what happened.
 */
class TraceAuditTest {
  @TempDir Path dir;
  private Path file;
  private JdbcStore store;
  private TestRun run;

  @BeforeEach
  void writeATrace() {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    file = TestStores.file(dir, "audit");
    store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock));
    run = new TestRun(store, store, "run-1").commits(4, 3);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private AuditReport audit() {
    return TraceAudit.verify(store, TestRun.TASK, "run-1", run.trace);
  }

  private void sql(String... statements) {
    Sql.exec(file, statements);
  }

  private static String where(long sequence) {
    return " WHERE set_name = 'trace' AND sequence = " + sequence;
  }

  @Test
  @Rules("R1.13-trace")
  void anUntouchedTraceIsIntact() {
    AuditReport r = audit();
    assertThat(r.intact()).isTrue();
    assertThat(r.stored()).isEqualTo(run.trace);
    assertThat(run.trace.count()).isEqualTo(12);
    r.requireIntact();
  }

  @Test
  @Rules("R1.13-trace")
  void anEditedEventIsFound() {
    sql("UPDATE ratchet_records SET body = '{\"sequence\":5,\"outcome\":\"fine\"}'" + where(5));
    AuditReport r = audit();
    assertThat(r.findings()).extracting(AuditReport.Finding::kind).containsExactly(Kind.EDITED);
    assertThat(r.findings().get(0).sequence()).isEqualTo(5);
  }

  @Test
  void aDeletedEventIsFound() {
    sql("DELETE FROM ratchet_records" + where(4));
    AuditReport r = audit();
    assertThat(r.findings()).extracting(AuditReport.Finding::kind).containsExactly(Kind.MISSING);
    assertThat(r.findings().get(0).sequence()).isEqualTo(4);
  }

  @Test
  void reorderedEventsAreFound() {
    sql(
        "UPDATE ratchet_records SET sequence = 1007" + where(7),
        "UPDATE ratchet_records SET sequence = 7" + where(8),
        "UPDATE ratchet_records SET sequence = 8" + where(1007));
    AuditReport r = audit();
    assertThat(r.findings())
        .extracting(AuditReport.Finding::kind)
        .containsExactly(Kind.REORDERED, Kind.REORDERED);
    assertThat(r.findings()).extracting(AuditReport.Finding::sequence).containsExactly(7L, 8L);
  }

  @Test
  void truncatingTheLastEventIsFound() {
    sql("DELETE FROM ratchet_records" + where(12));
    AuditReport r = audit();
    assertThat(r.findings()).extracting(AuditReport.Finding::kind).containsExactly(Kind.TRUNCATED);
    assertThat(r.stored().count()).isEqualTo(11);
  }

  @Test
  void aForgedEventAppendedWithACorrectLinkIsFound() {
    String body = Canonical.string(JsonObject.builder().put("sequence", 13).build());
    StoredRecord forged = RecordChain.append(run.trace, RecordSet.TRACE, "13", body);
    sql(
        "INSERT INTO ratchet_records VALUES ('task-1', 'run-1', 'trace', 13, '13', '"
            + body
            + "', '"
            + forged.chain()
            + "')");
    AuditReport r = audit();
    assertThat(r.findings()).extracting(AuditReport.Finding::kind).containsExactly(Kind.APPENDED);
    assertThat(r.findings().get(0).sequence()).isEqualTo(13);
  }

  @Test
  void anEditWithTheChainRebuiltIsFoundAtTheSignedHead() {
    List<StoredRecord> stored = store.records(TestRun.TASK, "run-1", RecordSet.TRACE, 1, 100);
    SetHead h = new SetHead(4, stored.get(3).chain());
    for (StoredRecord r : stored.subList(4, stored.size())) {
      String body = r.sequence() == 5 ? "{\"sequence\":5,\"rewritten\":true}" : r.body();
      StoredRecord rebuilt = RecordChain.append(h, RecordSet.TRACE, r.key(), body);
      sql(
          "UPDATE ratchet_records SET body = '"
              + body
              + "', chain = '"
              + rebuilt.chain()
              + "'"
              + where(r.sequence()));
      h = RecordChain.advance(h, rebuilt);
    }
    AuditReport r = audit();
    assertThat(r.findings())
        .extracting(AuditReport.Finding::kind)
        .containsExactly(Kind.HEAD_MISMATCH);
  }

  @Test
  void aDamagedTraceFailsWithCheckpoint() {
    sql("DELETE FROM ratchet_records" + where(12));
    Throwable t = catchThrowable(() -> audit().requireIntact());
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(t.getMessage()).contains("TRUNCATED");
  }

  @Test
  void theAuditWalksEveryPage() {
    run.commits(3, TraceAudit.PAGE);
    assertThat(audit().intact()).isTrue();
    sql("DELETE FROM ratchet_records" + where(TraceAudit.PAGE + 3));
    assertThat(audit().has(Kind.MISSING)).isTrue();
  }
}
