package dev.ratchet.schedule;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An operator's signed task as a store keeps it (ADR 0061): the ADR 0020 envelope over {@code
 * {kind: "submitted_task", operator_id, task_id, run_id, driver, task_file, nonce}} in canonical
 * JSON. The value is the stored text itself, as {@link dev.ratchet.store.CheckpointEnvelope} is, so
 * a store hands back exactly the bytes it was given and a refusal of a damaged envelope happens at
 * {@link #verify}, by the worker, rather than inside a claim.
 *
 * @param text the canonical JSON text of the envelope, as submitted
 */
public record SignedSubmission(String text) {
  /** The largest envelope a store accepts (in chars of its text). */
  public static final int MAX_CHARS = 1 << 20;

  private static final String KIND = "submitted_task";
  private static final String[] KEYS = {
    "kind", "operator_id", "task_id", "run_id", "driver", "task_file", "nonce"
  };

  public SignedSubmission {
    Objects.requireNonNull(text, "text");
  }

  /**
   * {@code taskFile} (the whole canonical task file) signed for one run and driver by {@code
   * signer}.
   */
  public static SignedSubmission sign(
      String taskId,
      String runId,
      String driver,
      JsonObject taskFile,
      String nonce,
      SigningKey signer) {
    JsonObject payload =
        JsonObject.builder()
            .put("kind", KIND)
            .put("operator_id", signer.label())
            .put("task_id", taskId)
            .put("run_id", runId)
            .put("driver", driver)
            .put("task_file", taskFile)
            .put("nonce", nonce)
            .build();
    return of(SignedEnvelope.sign(payload, signer));
  }

  /** The canonical text of {@code envelope}. */
  public static SignedSubmission of(SignedEnvelope envelope) {
    return new SignedSubmission(Canonical.string(envelope.toJson()));
  }

  /** {@code CONTRACT} when the text is larger than a store accepts. */
  public void requireStorable() {
    if (text.length() > MAX_CHARS) {
      throw RatchetException.contract("envelope: must be at most 1 MiB");
    }
  }

  /**
   * The signed task file, after checking the envelope's shape ({@code malformed}), the operator's
   * signature against {@code operators} ({@code untrusted_signer}, {@code bad_signature}, {@code
   * wrong_signer} when the payload names another operator than the key's) and that it is bound to
   * this task, run and driver ({@code wrong_binding}); {@link DecisionRefused} otherwise. The task
   * file itself is the caller's to parse.
   */
  public JsonObject verify(TrustRoot operators, String taskId, String runId, String driver) {
    SignedEnvelope env;
    Fields p;
    try {
      env =
          SignedEnvelope.fromJson(
              Json.parse(text.getBytes(StandardCharsets.UTF_8), JsonLimits.DEFAULT), "submission");
      p = Fields.exact(env.payload(), "submission.payload", KEYS);
      if (!KIND.equals(p.text("kind"))) {
        throw RatchetException.contract("submission.payload.kind: not " + KIND);
      }
      for (String k : new String[] {"operator_id", "task_id", "run_id", "driver", "nonce"}) {
        p.text(k);
      }
      p.obj("task_file");
    } catch (RatchetException | IllegalArgumentException e) {
      throw new DecisionRefused(
          DecisionRefused.Reason.MALFORMED, "submitted task: " + e.getMessage());
    }
    // D30: the name is the trust root's; a payload claiming another operator is wrong_signer.
    operators.verifySigner(
        env.keyId(), env.signedBytes(), env.signatureEd25519(), p.text("operator_id"));
    if (!p.text("task_id").equals(taskId)
        || !p.text("run_id").equals(runId)
        || !p.text("driver").equals(driver)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_BINDING,
          "submitted task: signed for run '"
              + p.text("run_id")
              + "' of task '"
              + p.text("task_id")
              + "' (driver "
              + p.text("driver")
              + "), not this one");
    }
    return p.obj("task_file");
  }

  @Override
  public String toString() {
    return "SignedSubmission[" + text.length() + " chars]";
  }
}
