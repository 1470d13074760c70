package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §3, reference-behaviour §3.1/§3.4: a state that breaks a cross-state invariant is refused
 * even when it carries a valid signature, and nothing is advanced by the refusal.
 */
class InvalidStateTest {
  private ManualClock clock;
  private InMemoryStore memory;
  private TamperingStore store;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;
  private long generation;

  @BeforeEach
  void runAFewSteps() {
    clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    memory = new InMemoryStore(clock);
    store = new TamperingStore(memory);
    f = new RuntimeFixture(31, clock, store, memory);
    task = f.task();
    ws = f.workspace();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.close();
    generation = memory.load(task.taskId(), "run-1").orElseThrow().generation();
  }

  /** Serves the stored checkpoint with its payload edited and validly re-signed. */
  private void serveResigned(UnaryOperator<JsonObject> edit) {
    store.onLoad(
        loaded ->
            loaded.map(
                r ->
                    new StoredRun(
                        r.scope(),
                        r.generation(),
                        r.contentDigest(),
                        new CheckpointEnvelope(resign(r.envelope().text(), edit)),
                        r.heads())));
  }

  private String resign(String text, UnaryOperator<JsonObject> edit) {
    return CheckpointForgery.resign(text, f.checkpointKey, edit);
  }

  private void assertRefusedAndNothingAdvanced(String messagePart) {
    assertThatThrownBy(() -> f.ratchet("w2").resume(task, "run-1", ws))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isIn(ErrorCode.CHECKPOINT, ErrorCode.CONTRACT);
              assertThat(e.getMessage()).contains(messagePart);
            });
    assertThat(memory.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation);
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  @Rules({"R3.4-invariants", "R3.1-validate-first"})
  void aSignedCompletedRunWithoutVerifierEvidenceIsRefused() {
    serveResigned(
        p ->
            p.with("phase", new JsonString("completed"))
                .with("stop_reason", new JsonString("verified_outcome")));
    assertRefusedAndNothingAdvanced("invalid run state");
  }

  @Test
  @Rules("R3.4-invariants")
  void aSignedRunningStateWithAStopReasonIsRefused() {
    serveResigned(p -> p.with("stop_reason", new JsonString("cancelled")));
    assertRefusedAndNothingAdvanced("invalid run state");
  }

  @Test
  @Rules("R3.4-invariants")
  void aSignedStateOverItsStepBudgetIsRefused() {
    serveResigned(
        p -> {
          JsonObject usage = (JsonObject) p.get("usage").get();
          return p.with("usage", usage.with("steps", new JsonInt(10_000)));
        });
    assertRefusedAndNothingAdvanced("invalid run state");
  }

  @Test
  @Rules({"R3.1-validate-first", "R3.4-invariants"})
  void seededRandomOutOfRangeSignedEditsAreRefusedAndNeverAdvanceTheMark() {
    long seed = 20261203L;
    Random random = new Random(seed);
    String original = memory.load(task.taskId(), "run-1").orElseThrow().envelope().text();
    JsonObject payload = (JsonObject) ((JsonObject) Json.parse(original)).get("payload").get();
    List<String> keys = new ArrayList<>(payload.members().keySet());
    int refused = 0;
    for (int i = 0; i < 200; i++) {
      String key = keys.get(random.nextInt(keys.size()));
      JsonValue replacement = randomValue(random);
      if (replacement.equals(payload.members().get(key))) {
        continue;
      }
      serveResigned(p -> p.with(key, replacement));
      try {
        Run r = f.ratchet("w2").resume(task, "run-1", ws);
        r.close();
        throw new AssertionError(
            "seed " + seed + " edit " + i + ": " + key + "=" + replacement + " was accepted");
      } catch (RatchetException e) {
        assertThat(e.code())
            .as("seed %d edit %d (%s=%s): %s", seed, i, key, replacement, e.getMessage())
            .isIn(ErrorCode.CHECKPOINT, ErrorCode.CONTRACT);
        refused++;
      }
      assertThat(memory.load(task.taskId(), "run-1").orElseThrow().generation())
          .as("seed %d edit %d", seed, i)
          .isEqualTo(generation);
    }
    assertThat(refused).isPositive();
    assertThat(ws.ledger()).hasSize(1);
  }

  private static JsonValue randomValue(Random random) {
    return switch (random.nextInt(5)) {
      case 0 ->
          new JsonInt(
              random.nextBoolean() ? -1 - random.nextInt(10) : 1_000_000 + random.nextInt(1000));
      case 1 -> new JsonString("x" + random.nextInt(100));
      case 2 -> JsonNull.INSTANCE;
      case 3 -> JsonObject.EMPTY;
      default -> new JsonString("needs_review");
    };
  }

  @Test
  @Rules("R1.15-mark")
  void theMarkIssuesTheNextGenerationOnlyFromTheCurrentOne() {
    InMemoryStore s = new InMemoryStore(clock);
    Lease lease = s.acquire("run-x", "w1", Duration.ofMinutes(1)).orElseThrow();
    RunScope scope = new RunScope("t", "run-x", "instance-1");
    CommitResult first = s.commit(new CommitRequest(scope, 0, lease, "{\"g\":1}", List.of()));
    assertThat(first).isEqualTo(new CommitResult.Committed(1));
    CommitResult replayed =
        s.commit(new CommitRequest(scope, 0, lease, "{\"g\":\"again\"}", List.of()));
    assertThat(replayed).isEqualTo(new CommitResult.LostRace(1));
    CommitResult skipped = s.commit(new CommitRequest(scope, 5, lease, "{\"g\":6}", List.of()));
    assertThat(skipped).isEqualTo(new CommitResult.LostRace(1));
    CommitResult second = s.commit(new CommitRequest(scope, 1, lease, "{\"g\":2}", List.of()));
    assertThat(second).isEqualTo(new CommitResult.Committed(2));
    assertThat(s.load("t", "run-x").orElseThrow().envelope().text()).isEqualTo("{\"g\":2}");
  }
}
