package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §11: every integrity and freshness failure is refused, fail-closed, with CHECKPOINT. */
class IntegrityTest {
  private ManualClock clock;
  private InMemoryStore memory;
  private TamperingStore store;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;

  @BeforeEach
  void runAFewSteps() {
    clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    memory = new InMemoryStore(clock);
    store = new TamperingStore(memory);
    f = new RuntimeFixture(11, clock, store, memory);
    task = f.task();
    ws = f.workspace();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.close();
  }

  private void tamper(UnaryOperator<String> edit) {
    store.onLoad(
        loaded ->
            loaded.map(
                r ->
                    new StoredRun(
                        r.scope(),
                        r.generation(),
                        r.contentDigest(),
                        new CheckpointEnvelope(edit.apply(r.envelope().text())),
                        r.heads())));
  }

  private void assertRecoveryRefused(ErrorCode code, String messagePart) {
    assertRefused(() -> f.ratchet("w2").resume(task, "run-1", ws), code, messagePart);
    long generationBefore = memory.load(task.taskId(), "run-1").orElseThrow().generation();
    assertThat(generationBefore).as("a refused recovery changes nothing").isEqualTo(3);
  }

  private static void assertRefused(ThrowingCallable call, ErrorCode code, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.getMessage()).contains(messagePart);
            });
  }

  @Test
  @Rules("R3.2-corruption")
  void aFlippedByteInThePayloadIsCorruption() {
    tamper(t -> t.replace("\"cursor\":1", "\"cursor\":2"));
    assertRecoveryRefused(ErrorCode.CHECKPOINT, "corrupted");
  }

  @Test
  @Rules({"R3.2-hmac", "R1.16-envelope"})
  void anEditWithARecomputedChecksumFailsTheHmac() {
    tamper(
        t -> {
          JsonObject env = (JsonObject) Json.parse(t);
          JsonObject payload =
              ((JsonObject) env.get("payload").get()).with("cursor", new JsonInt(9));
          return Canonical.string(
              env.with("payload", payload)
                  .with("checksum", new JsonString(Canonical.sha256Hex(payload))));
        });
    assertRecoveryRefused(ErrorCode.CHECKPOINT, "HMAC");
  }

  @Test
  @Rules("R3.2-hmac")
  void aWrongKeyUnderTheSameIdIsRefused() {
    SecretKey other = SecretKey.of("ckpt-1", new byte[32], ErrorCode.CHECKPOINT);
    Ratchet wrong =
        Ratchet.builder()
            .store(store)
            .leases(memory)
            .checkpointKeys(KeyRing.of(other))
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(clock)
            .entropy(f.entropy)
            .workerId("w2")
            .leaseTtl(Duration.ofSeconds(30))
            .build();
    assertRefused(() -> wrong.resume(task, "run-1", ws), ErrorCode.CHECKPOINT, "HMAC");
  }

  @Test
  @Rules("R3.2-hmac")
  void anUnknownKeyIdIsRefused() {
    SecretKey other = SecretKey.of("ckpt-9", new byte[32], ErrorCode.CHECKPOINT);
    Ratchet wrong =
        Ratchet.builder()
            .store(store)
            .leases(memory)
            .checkpointKeys(KeyRing.of(other))
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(clock)
            .workerId("w2")
            .build();
    assertRefused(() -> wrong.resume(task, "run-1", ws), ErrorCode.CHECKPOINT, "ckpt-1");
  }

  @Test
  @Rules("R3.2-stale")
  void anOlderSignedCheckpointIsRefusedAsStale() {
    String older = memory.load(task.taskId(), "run-1").orElseThrow().envelope().text();
    Run run = f.ratchet("w1").resume(task, "run-1", ws);
    run.apply(run.action("a2", "read_file", Scenarios.read("app.py")));
    run.close();
    store.onLoad(
        loaded ->
            loaded.map(
                r ->
                    new StoredRun(
                        r.scope(),
                        r.generation(),
                        r.contentDigest(),
                        new CheckpointEnvelope(older),
                        r.heads())));
    assertRefused(() -> f.ratchet("w2").resume(task, "run-1", ws), ErrorCode.CHECKPOINT, "stale");
  }

  @Test
  @Rules("R3.2-store-absent")
  void aMissingMarkOrAnUnreachableStoreFailsClosed() {
    store.onLoad(loaded -> Optional.empty());
    assertRefused(
        () -> f.ratchet("w2").resume(task, "run-1", ws), ErrorCode.CHECKPOINT, "no checkpoint");
    store.onLoad(UnaryOperator.identity());
    memory.setAvailable(false);
    assertThatThrownBy(() -> f.ratchet("w2").resume(task, "run-1", ws))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
  }

  @Test
  @Rules("R3.2-schema")
  void anUnknownFieldIsRefusedEvenWhenCorrectlySigned() {
    tamper(t -> resign(t, p -> p.with("extra", new JsonString("x"))));
    assertRecoveryRefused(ErrorCode.CHECKPOINT, "unknown fields [extra]");
  }

  @Test
  @Rules("R3.2-schema")
  void aMissingFieldIsRefusedEvenWhenCorrectlySigned() {
    tamper(t -> resign(t, p -> p.without("cursor")));
    assertRecoveryRefused(ErrorCode.CHECKPOINT, "missing fields [cursor]");
  }

  @Test
  @Rules({"R3.2-task-changed", "R1.4-task-fingerprint"})
  void aChangedTaskOrPolicyIsRefused() {
    TaskSpec changedPolicy =
        new TaskSpec(
            task.taskId(),
            task.taskVersion(),
            task.policyId(),
            "v2",
            task.adapter(),
            task.permissions(),
            task.actionKinds(),
            task.targets(),
            task.approvalRequired(),
            task.budgets(),
            task.environment(),
            task.verifier());
    assertRefused(
        () -> f.ratchet("w2").resume(changedPolicy, "run-1", ws), ErrorCode.CHECKPOINT, "changed");
    TaskSpec changedBudget =
        new TaskSpec(
            task.taskId(),
            task.taskVersion(),
            task.policyId(),
            task.policyVersion(),
            task.adapter(),
            task.permissions(),
            task.actionKinds(),
            task.targets(),
            task.approvalRequired(),
            new Budgets(501, 100, 86_400_000L, 1_000_000),
            task.environment(),
            task.verifier());
    assertRefused(
        () -> f.ratchet("w2").resume(changedBudget, "run-1", ws), ErrorCode.CHECKPOINT, "changed");
  }

  @Test
  @Rules("R3.3-instance")
  void theSameStateInAnotherInstanceIsRefused() {
    InMemoryWorkspace twin =
        new InMemoryWorkspace(
            "another-instance", clock, java.util.Map.of("app.py", RuntimeFixture.BROKEN));
    assertRefused(
        () -> f.ratchet("w2").resume(task, "run-1", twin), ErrorCode.CHECKPOINT, "instance");
  }

  /** Re-signs an edited payload with the right key: only the schema check can catch it. */
  private String resign(String text, UnaryOperator<JsonObject> edit) {
    return CheckpointForgery.resign(text, f.checkpointKey, edit);
  }
}
