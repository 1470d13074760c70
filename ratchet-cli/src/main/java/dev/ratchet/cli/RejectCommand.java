package dev.ratchet.cli;

import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.ops.ApprovalRules;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.InboxItem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ratchet reject RUN_ID --approver NAME|--key FILE --reason TEXT} (ADR 0072): shows the
 * run's pending write as {@code approve} does, signs a rejection bound to it (action, key, intent
 * digest) with the approver's own Ed25519 key and delivers it to the run's inbox. The lease holder
 * consumes it: the write is dropped (it never ran), traced {@code intent_rejected} with the reason;
 * an agent's model gets the rejection as the tool's result.
 */
@Command(
    name = "reject",
    mixinStandardHelpOptions = true,
    description =
        "Sign a rejection of the run's pending, not yet approved write (action, idempotency key,"
            + " intent digest) with the approver's own key and deliver it to the run's inbox. The"
            + " write is dropped without running; the reason is traced and an agent's model sees"
            + " it.")
final class RejectCommand extends CliCommand {
  @Mixin RunOptions target;

  @Mixin ApproverKey approverKey;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      required = true,
      description = "Why (traced, and given to an agent's model as the tool's result).")
  String reason;

  @Option(
      names = "--force",
      description =
          "Sign even if this home's approver trust root does not hold the key (for operators who"
              + " know the worker holds a different trust root).")
  boolean force;

  RejectCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    SigningKey signer = approverKey.signer(target.common.settings(target.task).resolvedHome());
    try (Session session = target.open(services)) {
      Session.Checked c = session.check(target.runId);
      RunState s = c.state();
      PendingIntent p =
          ApprovalRules.requireApprovable(
              target.runId, s, c.task().task(), false, services.clock().millis());
      ApprovalPreview.show(out(), c.adapter(), p);
      ApprovalPreview.requireTrusted(err(), session, signer, force);
      ApprovalRejection r =
          ApprovalRejection.ofPending(
              signer.label(),
              s,
              c.task().task(),
              reason,
              Decisions.nonce("rejection", services.entropy()));
      SignedEnvelope env = SignedEnvelope.sign(r.toJson(), signer);
      Decisions.deliver(session.store(), s, InboxItem.Kind.APPROVAL, r.nonce(), env);
      out()
          .println(
              "rejection of "
                  + p.action().kind()
                  + " "
                  + p.action().actionId()
                  + " by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ") delivered to run "
                  + target.runId
                  + " (nonce "
                  + r.nonce()
                  + "); the write is dropped without running when it is consumed: "
                  + session.whoActsNext(c.ref().taskId(), target.runId, "consumes it"));
      return 0;
    }
  }
}
