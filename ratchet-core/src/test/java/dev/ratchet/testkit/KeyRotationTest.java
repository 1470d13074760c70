package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import org.junit.jupiter.api.Test;

/** SPEC D15: rotation keeps old checkpoints readable and moves every new commit to the new key. */
class KeyRotationTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(51);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();
  private final SecretKey next = SecretKey.checkpoint("ckpt-2", new SeededEntropy(52).bytes(32));

  private Ratchet ratchetWith(KeyRing ring, String worker) {
    return Ratchet.builder()
        .store(f.store)
        .leases(f.leases)
        .checkpointKeys(ring)
        .approvers(f.approvers)
        .reviewers(f.reviewers)
        .clock(f.clock)
        .entropy(new SeededEntropy(53))
        .workerId(worker)
        .leaseTtl(RuntimeFixture.LEASE_TTL)
        .build();
  }

  private String storedKeyId() {
    return f.store.load(task.taskId(), "run-1").orElseThrow().envelope().keyId();
  }

  @Test
  @Rules("R1.17-key-rotation")
  void aRotatedRingReadsTheOldCheckpointAndSignsTheNextCommitWithTheNewKey() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.close();
    assertThat(storedKeyId()).isEqualTo("ckpt-1");

    KeyRing rotated = f.keyRing.rotate(next);
    Run resumed = ratchetWith(rotated, "w2").resume(task, "run-1", ws);
    resumed.apply(resumed.action("a2", "append_file", write("log.txt", "x\n")));
    resumed.close();
    assertThat(storedKeyId()).isEqualTo("ckpt-2");

    // Once every current checkpoint carries the new key, the old one can be revoked.
    Run again = ratchetWith(rotated.revoke("ckpt-1"), "w3").resume(task, "run-1", ws);
    assertThat(again.state().cursor()).isEqualTo(2);
  }

  @Test
  @Rules("R1.17-key-rotation")
  void aCheckpointSignedByARevokedKeyIsRefused() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.close();
    long generation = f.store.load(task.taskId(), "run-1").orElseThrow().generation();
    KeyRing revoked = f.keyRing.rotate(next).revoke("ckpt-1");
    assertThatThrownBy(() -> ratchetWith(revoked, "w2").resume(task, "run-1", ws))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CHECKPOINT);
              assertThat(e.getMessage()).contains("ckpt-1").contains("revoked");
            });
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation);
  }

  @Test
  @Rules("R1.17-key-rotation")
  void resignMovesTheCurrentCheckpointToTheNewKeyWithoutTouchingThePendingWrite() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.close();
    long generation = f.store.load(task.taskId(), "run-1").orElseThrow().generation();
    KeyRing rotated = f.keyRing.rotate(next);

    assertThat(ratchetWith(rotated, "rotator").resign(task, "run-1", ws)).isTrue();
    assertThat(storedKeyId()).isEqualTo("ckpt-2");
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation + 1);
    assertThat(ws.ledger()).isEmpty();
    // Already signed by the active key: nothing to do, nothing committed.
    assertThat(ratchetWith(rotated, "rotator").resign(task, "run-1", ws)).isFalse();
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation + 1);

    // The old key can now be revoked; the pending write is still there to reconcile.
    Run again = ratchetWith(rotated.revoke("ckpt-1"), "w2").resume(task, "run-1", ws);
    assertThat(again.state().cursor()).isEqualTo(1);
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  @Rules("R1.17-key-rotation")
  void resignRefusesACheckpointTheOldKeyDoesNotVerify() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.close();
    KeyRing stranger =
        KeyRing.of(SecretKey.checkpoint("ckpt-9", new SeededEntropy(54).bytes(32))).rotate(next);
    long generation = f.store.load(task.taskId(), "run-1").orElseThrow().generation();
    assertThatThrownBy(() -> ratchetWith(stranger, "rotator").resign(task, "run-1", ws))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKPOINT));
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation);
  }

  /**
   * ADR 0032: after a rotation the records sealed under the old key stay readable when the old key
   * is deleted from the ring or revoked: lookups of them (a replay's cached receipt, a used action
   * id) are authenticated through the chain to the signed head instead of failing closed.
   */
  @Test
  @Rules("R1.17-key-rotation")
  void recordsSealedUnderARemovedOrRevokedKeyStillAuthenticateThroughTheSignedHead() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    String key =
        run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
            .receipt()
            .idempotencyKey();
    run.apply(run.action("a2", "read_file", JsonObject.builder().put("path", "app.py").build()));
    run.close();
    KeyRing rotated = f.keyRing.rotate(next);
    assertThat(ratchetWith(rotated, "rotator").resign(task, "run-1", ws)).isTrue();
    int ledger = ws.ledger().size();
    int worker = 0;
    for (KeyRing without : java.util.List.of(KeyRing.of(next), rotated.revoke("ckpt-1"))) {
      Ratchet r = ratchetWith(without, "w" + (++worker + 1));
      assertThat(r.verify(task, "run-1", ws).cursor()).isEqualTo(1L + worker);
      try (Run again = r.resume(task, "run-1", ws)) {
        var replay =
            again.apply(
                again
                    .action("replay" + worker, "write_file", write("app.py", RuntimeFixture.FIXED))
                    .withIdempotencyKey(key));
        assertThat(replay.kind()).isEqualTo(dev.ratchet.outcome.StepOutcome.Kind.REPLAYED);
        assertThatThrownBy(
                () ->
                    again.apply(
                        again.action(
                            "a1", "read_file", JsonObject.builder().put("path", "app.py").build())))
            .isInstanceOfSatisfying(
                RatchetException.class,
                e -> {
                  assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
                  assertThat(e.getMessage()).contains("already used");
                });
      }
    }
    assertThat(ws.ledger()).as("replays make no effect").hasSize(ledger);
  }

  /**
   * ADR 0032 on the front door: {@code run.trace()} reads events sealed under a key since removed
   * or revoked as {@code verify} does, through the chain to the signed head; an edited one is still
   * refused.
   */
  @Test
  @Rules("R1.17-key-rotation")
  void runTraceAuthenticatesEventsUnderARemovedKeyThroughTheSignedHead() {
    java.util.List<dev.ratchet.model.TraceEvent> before;
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      before = run.trace();
    }
    KeyRing rotated = f.keyRing.rotate(next);
    assertThat(ratchetWith(rotated, "rotator").resign(task, "run-1", ws)).isTrue();
    int worker = 0;
    for (KeyRing without : java.util.List.of(KeyRing.of(next), rotated.revoke("ckpt-1"))) {
      try (Run again = ratchetWith(without, "w" + (++worker + 1)).resume(task, "run-1", ws)) {
        java.util.List<dev.ratchet.model.TraceEvent> trace = again.trace();
        assertThat(trace).hasSizeGreaterThan(before.size());
        assertThat(trace.subList(0, before.size())).isEqualTo(before);
      }
    }
    TamperingStore tampered = new TamperingStore(f.store);
    tampered.onRecords(
        list ->
            list.stream()
                .map(
                    r ->
                        r.set() == dev.ratchet.store.RecordSet.TRACE && r.body().contains("\"a1\"")
                            ? new dev.ratchet.store.StoredRecord(
                                r.set(),
                                r.sequence(),
                                r.key(),
                                r.body().replace("\"a1\"", "\"a9\""),
                                r.chain())
                            : r)
                .toList());
    Ratchet reader =
        Ratchet.builder()
            .store(tampered)
            .leases(f.leases)
            .checkpointKeys(KeyRing.of(next))
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(f.clock)
            .entropy(new SeededEntropy(55))
            .workerId("w9")
            .leaseTtl(RuntimeFixture.LEASE_TTL)
            .build();
    try (Run again = reader.resume(task, "run-1", ws)) {
      assertThatThrownBy(again::trace)
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CHECKPOINT));
    }
  }

  /** Issue 13: verify and resign take the action specs they need instead of an adapter. */
  @Test
  void verifyAndResignNeedOnlyTheActionSpecs() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    }
    KeyRing rotated = f.keyRing.rotate(next);
    Ratchet r = ratchetWith(rotated, "rotator");
    assertThat(r.resign(task, "run-1", ws.actionSpecs())).isTrue();
    assertThat(storedKeyId()).isEqualTo("ckpt-2");
    assertThat(r.verify(task, "run-1", ws.actionSpecs())).isEqualTo(r.verify(task, "run-1", ws));
    // The specs must still declare every kind the task uses.
    assertThatThrownBy(() -> r.verify(task, "run-1", java.util.List.of()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
  }
}
