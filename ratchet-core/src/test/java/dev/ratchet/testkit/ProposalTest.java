package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** propose (reference-behaviour §2.3.2, §4.4–4.5): every check, in order, with its code. */
class ProposalTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(71);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();
  private Run run;

  @BeforeEach
  void start() {
    run = f.ratchet("w1").start(task, "run-1", ws);
  }

  private void assertRejected(Action a, ErrorCode code, String traced) {
    long proposals = run.state().usage().proposals();
    long gen = run.generation();
    Throwable t = catchThrowable(() -> run.propose(a));
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(code);
    assertThat(run.state().usage().proposals()).isEqualTo(proposals + 1);
    assertThat(run.generation()).isEqualTo(gen + 1);
    String last = lastTrace();
    assertThat(last).contains("\"outcome\":\"" + traced + "\"").contains(code.name());
  }

  private String lastTrace() {
    long n = run.state().head(RecordSet.TRACE).count();
    return f.store
        .find(task.taskId(), "run-1", RecordSet.TRACE, Long.toString(n))
        .orElseThrow()
        .body();
  }

  private Action withKind(Action a, String kind, String risk) {
    return new Action(
        a.actionId(),
        kind,
        a.arguments(),
        a.idempotencyKey(),
        a.environmentRevision(),
        a.preconditions(),
        risk,
        a.deadlineProposal());
  }

  @Test
  @Rules({"R1.6-action", "R2.3.2-rejection-trace"})
  void malformedActionsAreContractRejections() {
    Action ok = run.action("b1", "read_file", read("app.py"));
    assertRejected(
        withKind(ok, "launch_rocket", "read_only"), ErrorCode.CONTRACT, "contract_rejected");
    assertRejected(
        run.action("b2", "read_file", JsonObject.builder().put("path", "../etc/passwd").build()),
        ErrorCode.CONTRACT,
        "contract_rejected");
    assertRejected(
        withKind(run.action("b3", "read_file", read("app.py")), "read_file", "verification"),
        ErrorCode.CONTRACT,
        "contract_rejected");
    assertRejected(
        run.action("b4", "read_file", read("app.py")).withIdempotencyKey("k"),
        ErrorCode.CONTRACT,
        "contract_rejected");
    Action noPre = run.action("b5", "read_file", read("app.py"));
    assertRejected(
        new Action(
            noPre.actionId(),
            noPre.kind(),
            noPre.arguments(),
            null,
            noPre.environmentRevision(),
            List.of(),
            noPre.risk(),
            noPre.deadlineProposal()),
        ErrorCode.CONTRACT,
        "contract_rejected");
  }

  @Test
  @Rules({"R2.3.2-burned-id", "R2.3.2-deadline"})
  void rejectedIdsAreBurnedAndDeadlinesHold() {
    Action past = run.action("c1", "read_file", read("app.py"));
    Action late =
        new Action(
            "c1",
            past.kind(),
            past.arguments(),
            null,
            past.environmentRevision(),
            past.preconditions(),
            past.risk(),
            1);
    run.apply(run.action("c0", "read_file", read("app.py")));
    assertRejected(late, ErrorCode.CONTRACT, "contract_rejected");
    assertRejected(
        run.action("c1", "read_file", read("app.py")), ErrorCode.CONTRACT, "contract_rejected");
  }

  @Test
  @Rules("R2.3.2-authorize")
  void pathsAndKindsOutsideThePolicyArePermissionDenied() {
    assertRejected(
        run.action("d1", "read_file", read("secret.py")),
        ErrorCode.PERMISSION,
        "permission_denied");
    TaskSpec narrow =
        new TaskSpec(
            "narrow",
            "v1",
            "p",
            "v1",
            task.adapter(),
            java.util.Set.of("workspace.read"),
            java.util.Set.of("read_file", "write_file"),
            task.targets(),
            java.util.Set.of(),
            task.budgets(),
            task.environment(),
            task.verifier());
    Run n = f.ratchet("w9").start(narrow, "run-n", ws);
    Throwable t =
        catchThrowable(() -> n.propose(n.action("d2", "write_file", write("app.py", "x"))));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.PERMISSION);
    t = catchThrowable(() -> n.propose(n.action("d3", "run_tests", Scenarios.tests())));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.PERMISSION);
  }

  @Test
  @Rules("R2.3.2-stale")
  void anActionPlannedAgainstAnotherRevisionIsStale() {
    Action a = run.action("e1", "read_file", read("app.py"));
    ws.externalWrite("log.txt", "x");
    assertRejected(a, ErrorCode.STALE_OBSERVATION, "stale_observation");
  }

  @Test
  @Rules("R2.3.2-pending-blocks")
  void aProposalWhileAWriteIsPendingIsRefusedAndCounted() {
    run.propose(run.action("f1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    assertRejected(
        run.action("f2", "read_file", read("app.py")), ErrorCode.CONTRACT, "contract_rejected");
    assertThat(run.state().pending().action().actionId()).isEqualTo("f1");
  }

  @Test
  @Rules({"R2.3.2-replay", "R1.7-adapter"})
  void sameKeySameIntentReplaysWithoutEffectOrStep() {
    StepOutcome w = run.apply(run.action("g1", "append_file", write("log.txt", "once\n")));
    String key = w.receipt().idempotencyKey();
    long steps = run.state().usage().steps();
    Proposal p =
        run.propose(
            run.action("g2", "append_file", write("log.txt", "once\n")).withIdempotencyKey(key));
    assertThat(p.kind()).isEqualTo(Proposal.Kind.REPLAYED);
    assertThat(p.replay().receipt()).isEqualTo(w.receipt());
    assertThat(run.state().usage().steps()).isEqualTo(steps);
    assertThat(ws.effects(key)).isEqualTo(1);
    assertThat(ws.files().get("log.txt")).isEqualTo("once\n");
  }

  @Test
  @Rules({"R2.3.2-replay-refused", "R4.4-cache-vs-adapter"})
  void replayIsRefusedForUnknownKeysOtherIntentsAndDriftedReceipts() {
    StepOutcome w = run.apply(run.action("h1", "append_file", write("log.txt", "once\n")));
    String key = w.receipt().idempotencyKey();
    assertRejected(
        run.action("h2", "append_file", write("log.txt", "once\n")).withIdempotencyKey("made-up"),
        ErrorCode.IDEMPOTENCY_CONFLICT,
        "idempotency_conflict");
    assertRejected(
        run.action("h3", "append_file", write("log.txt", "twice\n")).withIdempotencyKey(key),
        ErrorCode.IDEMPOTENCY_CONFLICT,
        "idempotency_conflict");
    Receipt r = w.receipt();
    ws.replaceReceipt(
        key,
        new Receipt(
            r.namespace(),
            r.adapterVersion(),
            "forged",
            key,
            r.intentDigest(),
            r.result(),
            r.revisionBefore(),
            r.revisionAfter(),
            r.fingerprintBefore(),
            r.fingerprintAfter(),
            r.committedAtMs(),
            r.fenceRunId(),
            r.fenceLeaseVersion(),
            r.approvalFingerprint(),
            r.businessId()));
    assertRejected(
        run.action("h4", "append_file", write("log.txt", "once\n")).withIdempotencyKey(key),
        ErrorCode.IDEMPOTENCY_CONFLICT,
        "idempotency_conflict");
    assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    assertThat(ws.effects(key)).isEqualTo(1);
  }

  @Test
  @Rules("R2.3.6-stale-pending")
  void aPendingWriteWhoseEnvironmentChangedIsDiscardedAsStale() {
    run.propose(run.action("i1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    ws.externalWrite("log.txt", "someone else\n");
    Throwable t = catchThrowable(() -> run.execute("i1"));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.STALE_OBSERVATION);
    assertThat(run.state().pending()).isNull();
    assertThat(ws.files().get("app.py")).isEqualTo(RuntimeFixture.BROKEN);
  }

  @Test
  @Rules("R3.3-drift")
  void driftWhileTheRunWasDownFreezesItForReview() {
    run.apply(run.action("j1", "read_file", read("app.py")));
    run.close();
    ws.externalWrite("app.py", "changed by a human\n");
    Run again = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(again.recovery().found()).isEqualTo(dev.ratchet.outcome.Recovery.Found.DRIFT);
    assertThat(again.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
    assertThat(again.state().review().reason()).isEqualTo(ReviewCase.ENVIRONMENT_DRIFT);
  }
}
