package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Approval;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Authenticated reads (SPEC D20, docs/adr/0030-authenticated-reads.md) on a real store. Two runs
 * are driven identically (reads, an approved and executed append, a second append pending with its
 * approval delivered): {@code control} is left alone, {@code victim} is tampered with raw SQL
 * behind the store's back. The full readers (what {@code verify} and {@code inspect} run: {@link
 * Ratchet#verify} plus {@link TraceAudit} over every set) must refuse every tampering with {@code
 * CHECKPOINT}; the acting path (resume, which executes the pending append, then a read, a re-used
 * action id and a replay of the first write's key) must either refuse with {@code CHECKPOINT} or
 * produce exactly the control's outcomes, files and ledger.
 */
abstract class AuthenticatedReadsContract {
  protected final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace controlWs;
  private InMemoryWorkspace victimWs;
  private String pendingNonce;
  private final java.util.Map<String, String> writeKeys = new java.util.HashMap<>();

  /** The store under test, fresh and empty. */
  protected abstract CheckpointStore store();

  /** The lease store of the same database. */
  protected abstract dev.ratchet.store.LeaseStore leases();

  /** Runs raw SQL as an attacker with write access; {@code {records}} names the records table. */
  protected abstract void sql(String... statements);

  private void drive() {
    f = new RuntimeFixture(23, clock, store(), leases());
    task = f.task("append_file");
    controlWs = f.workspace();
    victimWs = f.workspace();
    for (String runId : List.of("control", "victim")) {
      InMemoryWorkspace ws = runId.equals("control") ? controlWs : victimWs;
      try (Run run = f.ratchet("writer").start(task, runId, ws)) {
        for (int i = 0; i < 3; i++) {
          run.apply(run.action("r" + i, "read_file", path("app.py")));
        }
        StepOutcome w =
            run.apply(
                run.action(
                    "w", "write_file", path("app.py").with("content", s(RuntimeFixture.FIXED))));
        writeKeys.put(runId, w.receipt().idempotencyKey());
        for (int n = 0; n < 2; n++) {
          String id = "a" + n;
          Proposal p =
              run.propose(run.action(id, "append_file", path("log.txt").with("content", s("x"))));
          assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
          SignedEnvelope env = f.approvePending(run, task, Duration.ofHours(1));
          if (n == 0) {
            run.execute(id);
          } else if (runId.equals("victim")) {
            pendingNonce = Approval.fromJson(env.payload(), "approval").nonce();
          }
        }
      }
    }
  }

  /** What {@code verify} and {@code inspect} do before they show anything. */
  private String fullReaders(String runId, InMemoryWorkspace ws) {
    try {
      RunState s = f.ratchet("auditor").verify(task, runId, ws);
      for (RecordSet set : RecordSet.values()) {
        TraceAudit.verify(store(), task.taskId(), runId, set, s.head(set)).requireIntact();
      }
      return "accepted";
    } catch (RatchetException e) {
      return e.code().name();
    }
  }

  /** Recovery plus the next steps; every outcome, then the files and the ledger size. */
  private List<String> act(String runId, InMemoryWorkspace ws) {
    List<String> seen = new ArrayList<>();
    try (Run run = f.ratchet("actor").resume(task, runId, ws)) {
      seen.add("recovery " + run.recovery().found() + " " + run.recovery().did());
      seen.add("read " + step(() -> run.apply(run.action("next", "read_file", path("app.py")))));
      seen.add("reused id " + step(() -> run.apply(run.action("r0", "read_file", path("app.py")))));
      seen.add(
          "replay "
              + step(
                  () ->
                      run.apply(
                          run.action(
                                  "again",
                                  "write_file",
                                  path("app.py").with("content", s(RuntimeFixture.FIXED)))
                              .withIdempotencyKey(writeKeys.get(runId)))));
      seen.add("phase " + run.state().phase() + " cursor " + run.state().cursor());
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.CHECKPOINT) {
        seen.add("refused " + e.code() + ": " + e.getMessage());
        return seen;
      }
      return List.of("refused CHECKPOINT");
    }
    seen.add("files " + ws.files());
    seen.add("ledger " + ws.ledger().size());
    return seen;
  }

  private static String step(java.util.function.Supplier<StepOutcome> s) {
    try {
      StepOutcome o = s.get();
      return o.kind() + " " + o.result();
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      return "error " + e.code();
    }
  }

  private void tampered(String what, String... statements) {
    tamperedAfterDrive(what, () -> statements);
  }

  private static String where(String set) {
    return "task_id = 'repair-greeting' AND run_id = 'victim' AND set_name = '" + set + "'";
  }

  private static String last(String set) {
    return "(SELECT MAX(sequence) FROM {records} WHERE " + where(set) + ")";
  }

  @Test
  void deletingAMiddleTraceRow() {
    tampered(
        "middle trace row deleted",
        "DELETE FROM {records} WHERE " + where("trace") + " AND sequence = 3");
  }

  @Test
  void deletingAllButTheLastTraceRow() {
    tampered(
        "all but the last trace row deleted",
        "DELETE FROM {records} WHERE " + where("trace") + " AND sequence < " + last("trace"));
  }

  @Test
  void editingTheLastTraceRecordsBody() {
    tampered(
        "last trace body edited",
        "UPDATE {records} SET body = replace(body, '\"at_ms\":', '\"at_ms\":1') WHERE "
            + where("trace")
            + " AND sequence = "
            + last("trace"));
  }

  @Test
  void editingTheNewestReceiptsBody() {
    tampered(
        "newest receipt edited",
        "UPDATE {records} SET body = replace(body, '\"revision_after\":', '\"revision_after\":9')"
            + " WHERE "
            + where("receipts")
            + " AND sequence = "
            + last("receipts"));
  }

  @Test
  void insertingANonceRowForTheDeliveredApproval() {
    // The nonce is known only after the drive: the insertion copies the consumed nonce's row.
    tamperedAfterDrive(
        "nonce row inserted",
        () ->
            new String[] {
              "INSERT INTO {records} (task_id, run_id, set_name, sequence, record_key, body, chain)"
                  + " SELECT task_id, run_id, set_name, sequence + 1, '"
                  + pendingNonce
                  + "', body, chain FROM {records} WHERE "
                  + where("nonces")
                  + " AND sequence = 1"
            });
  }

  @Test
  void rekeyingTheConsumedNonceRowToTheDeliveredApprovalsNonce() {
    tamperedAfterDrive(
        "nonce row re-keyed",
        () ->
            new String[] {
              "UPDATE {records} SET record_key = '"
                  + pendingNonce
                  + "' WHERE "
                  + where("nonces")
                  + " AND sequence = 1"
            });
  }

  @Test
  void reorderingTwoActionIdRows() {
    String w = "UPDATE {records} SET sequence = ";
    tampered(
        "action id rows reordered",
        w + "1000 WHERE " + where("action_ids") + " AND sequence = 1",
        w + "1 WHERE " + where("action_ids") + " AND sequence = 2",
        w + "2 WHERE " + where("action_ids") + " AND sequence = 1000");
  }

  @Test
  void insertingAnActionIdRow() {
    tampered(
        "action id row inserted",
        "INSERT INTO {records} (task_id, run_id, set_name, sequence, record_key, body, chain)"
            + " SELECT task_id, run_id, set_name, sequence + 100, 'next', body, chain"
            + " FROM {records} WHERE "
            + where("action_ids")
            + " AND sequence = 1");
  }

  @Test
  void insertingAQuarantineRowForTheReplayedKey() {
    tamperedAfterDrive(
        "quarantine row inserted",
        () ->
            new String[] {
              "INSERT INTO {records} (task_id, run_id, set_name, sequence, record_key, body, chain)"
                  + " SELECT task_id, run_id, 'quarantined_keys', 1, '"
                  + writeKeys.get("victim")
                  + "', body, chain FROM {records} WHERE "
                  + where("nonces")
                  + " AND sequence = 1"
            });
  }

  private void tamperedAfterDrive(String what, java.util.function.Supplier<String[]> sql) {
    drive();
    assertThat(fullReaders("victim", victimWs)).as("untampered victim").isEqualTo("accepted");
    sql(sql.get());
    assertThat(fullReaders("victim", victimWs))
        .as(what + ": verify/inspect")
        .isEqualTo("CHECKPOINT");
    List<String> control = act("control", controlWs);
    assertThat(control).as("control").doesNotContain("refused CHECKPOINT");
    List<String> victim = act("victim", victimWs);
    if (!victim.equals(List.of("refused CHECKPOINT"))) {
      assertThat(victim).as(what + ": the acting path used a tampered record").isEqualTo(control);
    }
  }

  /**
   * ADR 0031: the acting path cannot see that a middle action-id row is gone (no absence proof), so
   * an agent re-proposing exactly that id gets its proposal accepted — but its key is the MAC of
   * the id, i.e. the key of the earlier effect, and the adapter's lookup by key (before any
   * execute) finds that effect: the write is not made a second time, even with a fresh approval.
   */
  @Test
  void deletingAMiddleActionIdRowCannotMakeAReProposalFireTwice() {
    drive();
    // Action ids r0 r1 r2 w a0 a1: w is a middle row (the tip check covers a0 and a1).
    sql("DELETE FROM {records} WHERE " + where("action_ids") + " AND record_key = 'w'");
    assertThat(fullReaders("victim", victimWs)).as("verify/inspect").isEqualTo("CHECKPOINT");
    try (Run run = f.ratchet("actor").resume(task, "victim", victimWs)) {
      int ledger = victimWs.ledger().size();
      try {
        Proposal p =
            run.propose(
                run.action(
                    "w", "write_file", path("app.py").with("content", s(RuntimeFixture.FIXED))));
        assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
        assertThat(p.action().idempotencyKey())
            .as("the re-proposed id is minted the key of its earlier effect")
            .isEqualTo(writeKeys.get("victim"));
        run.execute("w");
      } catch (RatchetException refused) {
        // Refusing or freezing is fine; only a second effect is not.
      }
      assertThat(victimWs.ledger()).as("no second effect").hasSize(ledger);
    }
  }

  @Test
  void theUntamperedControlsActIdentically() {
    drive();
    assertThat(act("victim", victimWs)).isEqualTo(act("control", controlWs));
  }

  private static JsonObject path(String p) {
    return JsonObject.builder().put("path", p).build();
  }

  private static JsonString s(String v) {
    return new JsonString(v);
  }
}
