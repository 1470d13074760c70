package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.tests;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §10 at recovery: a state re-signed by an insider with the real checkpoint key, claiming
 * completion (or carrying verifier evidence) that no passing verification of that environment state
 * produced, is refused by {@code resume} with {@code CHECKPOINT}, and nothing advances.
 */
class CompletionEvidenceTest {
  private ManualClock clock;
  private InMemoryStore memory;
  private TamperingStore store;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;
  private long generation;

  /** Fails a verification, fixes app.py, passes one, then changes the workspace again. */
  @BeforeEach
  void verifyFailThenPassThenChange() {
    clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    memory = new InMemoryStore(clock);
    store = new TamperingStore(memory);
    f = new RuntimeFixture(41, clock, store, memory);
    task = f.task();
    ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("t1", "run_tests", tests()));
      run.apply(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      run.apply(run.action("t2", "run_tests", tests()));
      run.apply(run.action("w2", "append_file", write("log.txt", "fixed\n")));
    }
    generation = memory.load(task.taskId(), "run-1").orElseThrow().generation();
  }

  /** The trace sequence of the event {@code actionId} produced with {@code outcome}. */
  private long sequenceOf(String actionId, String outcome) {
    for (StoredRecord r : memory.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 1000)) {
      TraceEvent e = TraceEvent.fromJson(RecordMac.strip(r), "trace");
      if (actionId.equals(e.actionId()) && outcome.equals(e.outcome().wireName())) {
        return e.sequence();
      }
    }
    throw new AssertionError("no " + outcome + " event of " + actionId);
  }

  /** Serves the checkpoint re-signed with the real key, its evidence pointing at {@code seq}. */
  private void forgeEvidence(long seq, boolean completed) {
    UnaryOperator<JsonObject> edit =
        p -> {
          JsonObject binding = (JsonObject) p.get("binding").orElseThrow();
          JsonObject verified =
              JsonObject.builder()
                  .put("revision", binding.get("revision").orElseThrow())
                  .put("state_fingerprint", binding.get("state_fingerprint").orElseThrow())
                  .put("trace_sequence", new JsonInt(seq))
                  .build();
          JsonObject out = p.with("verified", verified);
          return completed
              ? out.with("phase", new JsonString("completed"))
                  .with("stop_reason", new JsonString("verified_outcome"))
              : out;
        };
    store.onLoad(
        loaded ->
            loaded.map(
                r ->
                    new StoredRun(
                        r.scope(),
                        r.generation(),
                        r.contentDigest(),
                        new CheckpointEnvelope(
                            CheckpointForgery.resign(r.envelope().text(), f.checkpointKey, edit)),
                        r.heads())));
  }

  private void assertResumeRefused(String messagePart) {
    assertThatThrownBy(() -> f.ratchet("w2").resume(task, "run-1", ws))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CHECKPOINT);
              assertThat(e.getMessage()).contains(messagePart);
            });
    assertThat(memory.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation);
  }

  @Test
  void aForgedCompletionNamingAWriteEventIsRefused() {
    forgeEvidence(sequenceOf("w2", "executed"), true);
    assertResumeRefused("is not a verification");
  }

  @Test
  void aForgedCompletionNamingTheStartEventIsRefused() {
    forgeEvidence(1, true);
    assertResumeRefused("is not a verification");
  }

  @Test
  void aForgedCompletionNamingAFailedVerificationIsRefused() {
    forgeEvidence(sequenceOf("t1", "executed"), true);
    assertResumeRefused("did not pass");
  }

  @Test
  void aForgedCompletionNamingAPassingVerificationOfAnEarlierStateIsRefused() {
    forgeEvidence(sequenceOf("t2", "executed"), true);
    assertResumeRefused("verified another environment state");
  }

  @Test
  void forgedEvidenceOnARunningStateIsRefusedBeforeItCanReachFinish() {
    forgeEvidence(sequenceOf("t1", "executed"), false);
    assertResumeRefused("did not pass");
  }

  @Test
  void aGenuineCompletionStillResumes() {
    try (Run run = f.ratchet("w1").resume(task, "run-1", ws)) {
      run.apply(run.action("t3", "run_tests", tests()));
      run.apply(run.action("f1", "finish", JsonObject.EMPTY));
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
    }
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(again.state().verified().traceSequence()).isEqualTo(sequenceOf("t3", "executed"));
    }
  }
}
