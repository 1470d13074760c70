package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.StoredRun;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * ADR 0031: a run whose checkpoint is schema version 1 (no key salt: written before idempotency
 * keys were bound to action ids) resumes, keeps minting random keys, and is written back as version
 * 1; a new run is version 2 and mints each key as the MAC of its action id.
 */
class VersionOneCheckpointTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final InMemoryStore memory = new InMemoryStore(clock);
  private final TamperingStore store = new TamperingStore(memory);
  private final RuntimeFixture f = new RuntimeFixture(61, clock, store, memory);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  private JsonObject stored() {
    return (JsonObject)
        Json.parse(memory.load(task.taskId(), "run-1").orElseThrow().envelope().text());
  }

  private static String salt(JsonObject env) {
    JsonObject payload = (JsonObject) env.get("payload").orElseThrow();
    return ((JsonString) payload.get("key_salt").orElseThrow()).value();
  }

  private String macKey(String salt, String actionId) {
    JsonObject message =
        JsonObject.builder()
            .put("purpose", "ratchet.idempotency_key.v1")
            .put("task_id", task.taskId())
            .put("run_id", "run-1")
            .put("action_id", actionId)
            .build();
    SecretKey k =
        SecretKey.of("salt", HexFormat.of().parseHex(salt), dev.ratchet.error.ErrorCode.INTERNAL);
    return Hmac.hmacHex(k, Canonical.bytes(message)).substring(0, 32);
  }

  @Test
  void aNewRunIsVersionTwoAndMintsKeysFromItsActionIds() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key =
          run.apply(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)))
              .receipt()
              .idempotencyKey();
      assertThat(stored().get("schema_version").orElseThrow()).isEqualTo(new JsonInt(2));
      assertThat(key).isEqualTo(macKey(salt(stored()), "w1"));
    }
  }

  @Test
  void aVersionOneRunResumesWithRandomKeysAndStaysVersionOne() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    }
    String salt = salt(stored());
    // Serve the run as an older Ratchet wrote it: version 1, no salt, signed with the real key.
    store.onLoad(
        loaded ->
            loaded.map(
                r -> {
                  JsonObject env = (JsonObject) Json.parse(r.envelope().text());
                  JsonObject payload =
                      ((JsonObject) env.get("payload").orElseThrow()).without("key_salt");
                  JsonObject v1 =
                      CheckpointForgery.withPayload(
                          env.with("schema_version", new JsonInt(1)), payload);
                  return new StoredRun(
                      r.scope(),
                      r.generation(),
                      r.contentDigest(),
                      new CheckpointEnvelope(
                          Canonical.string(CheckpointForgery.sign(v1, f.checkpointKey))),
                      r.heads());
                }));
    int ledger = ws.ledger().size();
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().keySalt()).isNull();
      String key =
          run.apply(run.action("w2", "append_file", write("log.txt", "x\n")))
              .receipt()
              .idempotencyKey();
      assertThat(key).hasSize(32).isNotEqualTo(macKey(salt, "w2"));
    }
    assertThat(ws.ledger()).hasSize(ledger + 1);
    assertThat(stored().get("schema_version").orElseThrow()).isEqualTo(new JsonInt(1));
    assertThat(((JsonObject) stored().get("payload").orElseThrow()).has("key_salt")).isFalse();
  }
}
