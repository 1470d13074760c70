package dev.ratchet.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.RunState;
import dev.ratchet.seam.Entropy;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import java.util.HexFormat;

/**
 * Minting idempotency keys (D4, ADR 0031). A version-2 run mints each write's key as a MAC of its
 * action id under the run's salt, so the key is a function of the action id: an agent that
 * re-proposes an id whose action-id row an attacker deleted gets the key of the earlier effect, and
 * the adapter's lookup by that key (done before any execute) finds it. A version-1 run has no salt
 * and keeps the random keys it always had.
 */
final class IdempotencyKeys {

  private IdempotencyKeys() {}

  /**
   * A new run's 256-bit salt, as lowercase hex: the MAC, under the runtime's active checkpoint key,
   * of the run's identity (ADR 0121). A run whose first generation a failover lost is started again
   * under the same salt, so it mints the keys of the effects it already caused and the adapter's
   * lookup finds them; a random salt would mint new keys and write again. The purpose field keeps
   * this MAC apart from every checkpoint's; keys stay unique per run and unpredictable without the
   * key.
   */
  static String saltFor(KeyRing keys, String taskId, String runId) {
    JsonObject message =
        JsonObject.builder()
            .put("purpose", "ratchet.key_salt.v1")
            .put("task_id", taskId)
            .put("run_id", runId)
            .build();
    return keys.sign(Canonical.bytes(message)).hmacHex();
  }

  /** The key for {@code actionId} in {@code state}'s run: 128 bits as 32 lowercase hex. */
  static String mint(RunState state, String actionId, Entropy entropy) {
    if (state.keySalt() == null) {
      return entropy.hex128();
    }
    byte[] material = HexFormat.of().parseHex(state.keySalt());
    SecretKey salt = SecretKey.of("run-key-salt", material, ErrorCode.INTERNAL);
    java.util.Arrays.fill(material, (byte) 0);
    JsonObject message =
        JsonObject.builder()
            .put("purpose", "ratchet.idempotency_key.v1")
            .put("task_id", state.taskId())
            .put("run_id", state.runId())
            .put("action_id", actionId)
            .build();
    return Hmac.hmacHex(salt, Canonical.bytes(message)).substring(0, 32);
  }
}
