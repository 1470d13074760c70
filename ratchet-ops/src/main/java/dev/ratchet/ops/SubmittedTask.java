package dev.ratchet.ops;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.internal.PlanDriver;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.nio.file.Path;

/**
 * A task submitted by an operator (SPEC D19, D24; ADR 0061): the whole task file, bound to its run
 * id and driver, signed with the operator's own Ed25519 key in core's {@link SignedSubmission}. The
 * worker {@linkplain #verify verifies} it against its operator trust root before the run's first
 * commit, and again at every later claim (the task must come from outside the checkpoint, SPEC §1).
 */
public final class SubmittedTask {
  /** The driver of a submitted task file's plan (registered from ops' META-INF/services). */
  public static final String PLAN_DRIVER = PlanDriver.NAME;

  private SubmittedTask() {}

  /**
   * Submits {@code tf} as run {@code runId}, signed by {@code signer}, to the session's scheduling
   * store ({@code CONTRACT} when it has none): a worker starts it once it has verified the
   * signature.
   */
  public static void submit(Session session, TaskFile tf, String runId, SigningKey signer) {
    SignedSubmission signed =
        sign(
            tf,
            runId,
            PLAN_DRIVER,
            Decisions.nonce("submit", session.services().entropy()),
            signer);
    session.scheduling("submit").submit(tf.task().taskId(), runId, PLAN_DRIVER, signed);
  }

  /** The signed submission of {@code tf} as run {@code runId} under {@code driver}. */
  public static SignedSubmission sign(
      TaskFile tf, String runId, String driver, String nonce, SigningKey signer) {
    return SignedSubmission.sign(tf.task().taskId(), runId, driver, tf.toJson(), nonce, signer);
  }

  /**
   * The task file of a submitted run, after {@link SignedSubmission#verify} (shape, the operator's
   * signature, the binding to this task, run and driver) and a parse of the signed task file whose
   * task must be this one ({@code wrong_binding} otherwise).
   */
  public static TaskFile verify(
      SignedSubmission submission,
      String taskId,
      String runId,
      String driver,
      TrustRoot operators,
      AdapterRegistry adapters,
      Path baseDir) {
    JsonObject taskFile = submission.verify(operators, taskId, runId, driver);
    TaskFile tf =
        TaskFile.parse(Canonical.bytes(taskFile), baseDir, adapters, "submitted task " + runId);
    if (!tf.task().taskId().equals(taskId)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_BINDING,
          "submitted task: its task file is task '" + tf.task().taskId() + "'");
    }
    return tf;
  }
}
