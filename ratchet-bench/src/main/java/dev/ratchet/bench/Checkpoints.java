package dev.ratchet.bench;

import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.charset.StandardCharsets;

/**
 * Real checkpoints of a chosen size for the micro-benchmarks, and the envelope steps (SPEC D5)
 * written with the public API only.
 *
 * <p>{@link #encode} and {@link #verify} are the runtime's own public envelope steps ({@link
 * Checkpoint#seal}, {@link Checkpoint#open}): canonical payload, plain checksum, HMAC over the
 * canonical envelope without its {@code hmac} member; strict parse, checksum, HMAC, strict model
 * decode. A test ({@code CheckpointsTest}) pins them to the bytes the runtime actually stores.
 */
public final class Checkpoints {
  private static final String CODE_LINE =
      "    if (order.total() > limit) { log.warn(\"over \\\"limit\\\"\", order.id()); }\n";

  private Checkpoints() {}

  /** A checkpoint's control state and the envelope the runtime signs it into. */
  public record Sample(RunState state, KeyRing ring, long generation, String envelope) {
    public int bytes() {
      return envelope.getBytes(StandardCharsets.UTF_8).length;
    }
  }

  /**
   * The state of a real run with a pending write whose content is padded so that the signed
   * envelope is {@code targetBytes} long (the pending intent is the one unbounded part of a
   * checkpoint, D6). A target below the smallest pending-write checkpoint (about 1.8 KB) gets the
   * smallest checkpoint a run has at all: started, nothing pending (about 1.2 KB).
   */
  public static Sample ofSize(int targetBytes) {
    Sample bare = pendingWrite(null);
    int need = targetBytes - bare.bytes();
    if (need < 0) {
      return started();
    }
    int lineBytes = Canonical.string(new JsonString(CODE_LINE)).length() - 2;
    StringBuilder content = new StringBuilder(need);
    for (int i = 0; i < need / lineBytes; i++) {
      content.append(CODE_LINE);
    }
    content.append("x".repeat(need % lineBytes));
    return pendingWrite(content.toString());
  }

  private static Sample started() {
    RuntimeFixture fx = RuntimeFixture.inMemory(42);
    TaskSpec task = fx.task();
    try (Run run = fx.ratchet("bench-worker").start(task, "bench-run", fx.workspace())) {
      String stored = fx.store.load(task.taskId(), "bench-run").orElseThrow().envelope().text();
      return new Sample(run.state(), fx.keyRing, run.generation(), stored);
    }
  }

  private static Sample pendingWrite(String content) {
    RuntimeFixture fx = RuntimeFixture.inMemory(42);
    TaskSpec task = fx.task();
    InMemoryWorkspace ws = fx.workspace();
    try (Run run = fx.ratchet("bench-worker").start(task, "bench-run", ws)) {
      JsonObject args =
          JsonObject.builder()
              .put("path", "app.py")
              .put("content", content == null ? "" : content)
              .build();
      Proposal p = run.propose(run.action("w1", "write_file", args));
      if (p.kind() != Proposal.Kind.PENDING) {
        throw new IllegalStateException("expected a pending write, got " + p.kind());
      }
      String stored = fx.store.load(task.taskId(), "bench-run").orElseThrow().envelope().text();
      return new Sample(run.state(), fx.keyRing, run.generation(), stored);
    }
  }

  /** The signed envelope of {@code state} at {@code generation}, as the runtime commits it. */
  public static String encode(RunState state, long generation, KeyRing ring) {
    return Checkpoint.seal(state, generation, ring).text();
  }

  /** Strict parse, checksum, HMAC and strict model decode of an envelope, as recovery does. */
  public static RunState verify(String envelope, KeyRing ring) {
    return Checkpoint.open(new CheckpointEnvelope(envelope), ring).state();
  }
}
