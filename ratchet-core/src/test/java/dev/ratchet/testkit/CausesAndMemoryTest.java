package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.tests;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Cause;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC D25: the decision behind a proposal (a model response, an MCP request) is committed once in
 * the proposal's own commit with its cost, and conversation memory rides on the next commit; both
 * read back authenticated against the signed heads (D20).
 */
class CausesAndMemoryTest {
  private ManualClock clock;
  private InMemoryStore memory;
  private TamperingStore store;
  private RuntimeFixture f;
  private TaskSpec task;

  @BeforeEach
  void fixture() {
    clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    memory = new InMemoryStore(clock);
    store = new TamperingStore(memory);
    f = new RuntimeFixture(43, clock, store, memory);
    task = f.task();
  }

  private static Cause response(String id, String text, long tokens) {
    return new Cause(id, "model_response", JsonObject.builder().put("text", text).build(), tokens);
  }

  private long generation() {
    return memory.load(task.taskId(), "run-1").orElseThrow().generation();
  }

  @Test
  void aCauseIsCommittedWithTheIntentItCausesInTheSameCommitWithItsCost() {
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      long before = generation();
      long costBefore = run.state().usage().cost();
      Cause c = response("resp-1", "write app.py, then run the tests", 120);
      Proposal p = run.propose(run.action("w1", "write_file", write("app.py", "x\n")), c);

      assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
      assertThat(generation()).isEqualTo(before + 1);
      assertThat(run.state().usage().cost()).isEqualTo(costBefore + 120);
      assertThat(run.state().head(RecordSet.CAUSES).count()).isEqualTo(1);
      assertThat(run.causes()).containsExactly(c);
      TraceEvent accepted = run.trace().get(run.trace().size() - 1);
      assertThat(accepted.detail().get("cause_id").orElseThrow().toString()).contains("resp-1");
    }
  }

  @Test
  void theSameCauseForItsSecondToolCallAddsNothingAndAChangedOneIsRefusedBeforeAnyCommit() {
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      Cause c = response("resp-1", "two calls", 50);
      run.apply(run.action("w1", "write_file", write("app.py", "x\n")), c);
      run.apply(run.action("t1", "run_tests", tests()), c);
      assertThat(run.causes()).containsExactly(c);
      assertThat(run.state().usage().cost()).isEqualTo(50);

      long before = generation();
      Cause changed = response("resp-1", "a different answer", 50);
      assertThatThrownBy(() -> run.propose(run.action("t2", "run_tests", tests()), changed))
          .isInstanceOf(RatchetException.class)
          .hasMessageContaining("cause.cause_id")
          .extracting(e -> ((RatchetException) e).code())
          .isEqualTo(ErrorCode.CONTRACT);
      assertThat(generation()).isEqualTo(before);
    }
  }

  @Test
  void aResumedRunReadsItsCausesAndMemoryBackAndMemoryRidesOnTheNextCommit() {
    InMemoryWorkspace ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.remember(JsonObject.builder().put("role", "user").put("text", "fix it").build());
      assertThat(run.memory()).isEmpty();
      run.apply(run.action("t1", "run_tests", tests()), response("resp-1", "run tests", 7));
      run.remember(JsonObject.builder().put("role", "ai").put("text", "not durable yet").build());
    }
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(again.causes()).extracting(Cause::causeId).containsExactly("resp-1");
      assertThat(again.memory())
          .extracting(m -> m.get("text").orElseThrow().toString())
          .containsExactly("\"fix it\"");
    }
  }

  @Test
  void aDeletedOrEditedMemoryRecordIsRefusedWithCheckpoint() {
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      for (int i = 0; i < 3; i++) {
        run.remember(JsonObject.builder().put("n", i).build());
        run.apply(run.action("t" + i, "run_tests", tests()));
      }
      assertThat(run.memory()).hasSize(3);

      store.onRecords(
          rs -> {
            List<StoredRecord> out = new ArrayList<>(rs);
            out.removeIf(r -> r.set() == RecordSet.MEMORY && r.sequence() == 2);
            return out;
          });
      assertThatThrownBy(run::memory)
          .isInstanceOf(RatchetException.class)
          .extracting(e -> ((RatchetException) e).code())
          .isEqualTo(ErrorCode.CHECKPOINT);

      store.onRecords(
          rs ->
              rs.stream()
                  .map(
                      r ->
                          r.set() == RecordSet.MEMORY && r.sequence() == 3
                              ? new StoredRecord(
                                  r.set(),
                                  r.sequence(),
                                  r.key(),
                                  r.body().replace("\"n\":2", "\"n\":9"),
                                  r.chain())
                              : r)
                  .toList());
      assertThatThrownBy(run::memory)
          .isInstanceOf(RatchetException.class)
          .extracting(e -> ((RatchetException) e).code())
          .isEqualTo(ErrorCode.CHECKPOINT);
    }
  }

  @Test
  void aRunThatNeverUsesCausesKeepsTheFirstCheckpointFormat() {
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      run.apply(run.action("t1", "run_tests", tests()));
      String payload = run.state().toJson().toString();
      assertThat(payload).doesNotContain("\"causes\"").doesNotContain("\"memory\"");
      run.remember(JsonObject.builder().put("n", 1).build());
      run.apply(run.action("t2", "run_tests", tests()));
      assertThat(run.state().toJson().toString()).contains("\"memory\"");
    }
  }
}
