package dev.ratchet.cli.internal;

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
import java.nio.file.Path;

/**
 * A task submitted by an operator (SPEC D19, D24; ADR 0061): the whole task file, bound to its run
 * id and driver, signed with the operator's own Ed25519 key in the ADR 0020 envelope. The worker
 * {@linkplain #verify verifies} it against its operator trust root before the run's first commit,
 * and again at every later claim (the task must come from outside the checkpoint, SPEC §1).
 */
public final class SubmittedTask {
  private static final String[] KEYS = {
    "kind", "operator_id", "task_id", "run_id", "driver", "task_file", "nonce"
  };
  private static final String KIND = "submitted_task";

  private SubmittedTask() {}

  /** The signed envelope of {@code tf} submitted as run {@code runId} under {@code driver}. */
  public static SignedEnvelope sign(
      TaskFile tf, String runId, String driver, String nonce, SigningKey signer) {
    JsonObject payload =
        JsonObject.builder()
            .put("kind", KIND)
            .put("operator_id", signer.label())
            .put("task_id", tf.task().taskId())
            .put("run_id", runId)
            .put("driver", driver)
            .put("task_file", tf.toJson())
            .put("nonce", nonce)
            .build();
    return SignedEnvelope.sign(payload, signer);
  }

  /**
   * The task file of a submitted run, after checking the envelope's shape, the operator's signature
   * ({@code untrusted_signer}, {@code bad_signature}) and that it is bound to this task, run and
   * driver ({@code wrong_binding}); refused with {@link DecisionRefused} otherwise.
   */
  public static TaskFile verify(
      String envelopeJson,
      String taskId,
      String runId,
      String driver,
      TrustRoot operators,
      AdapterRegistry adapters,
      Path baseDir) {
    SignedEnvelope env;
    Fields p;
    try {
      env =
          SignedEnvelope.fromJson(
              Json.parse(envelopeJson.getBytes(StandardCharsets.UTF_8), JsonLimits.DEFAULT),
              "submission");
      p = Fields.exact(env.payload(), "submission.payload", KEYS);
      if (!KIND.equals(p.text("kind"))) {
        throw RatchetException.contract("submission.payload.kind: not " + KIND);
      }
    } catch (RatchetException | IllegalArgumentException e) {
      throw new DecisionRefused(
          DecisionRefused.Reason.MALFORMED, "submitted task: " + e.getMessage());
    }
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
    TaskFile tf =
        TaskFile.parse(
            Canonical.bytes(p.obj("task_file")), baseDir, adapters, "submitted task " + runId);
    if (!tf.task().taskId().equals(taskId)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_BINDING,
          "submitted task: its task file is task '" + tf.task().taskId() + "'");
    }
    return tf;
  }
}
