package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.CancelRequest;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ratchet cancel RUN_ID --operator NAME|--key FILE}: signs a cancel bound to the run with
 * the operator's own Ed25519 key (D19) and delivers it to the run's inbox (D12). The worker that
 * next recovers the run consumes it under its lease: with nothing pending the run ends {@code
 * cancelled}; with a pending write it freezes in {@code needs_review} ({@code cancel_requested}).
 */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description =
        "Sign a cancel of a running or paused run with the operator's own key and deliver it to"
            + " the run's inbox. At its next recovery the run ends cancelled, or, with a write pending,"
            + " freezes in needs_review (cancel_requested) so a reviewer decides.")
final class CancelCommand extends CliCommand {
  @Mixin RunOptions target;

  @Mixin OperatorKeyOptions signing;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      defaultValue = "operator request",
      description = "Why (traced with the cancel; default: operator request).")
  String reason;

  CancelCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    SigningKey signer = signing.signer(target.common.settings(target.task).resolvedHome());
    try (Session session = target.open(services)) {
      Session.Checked checked = session.check(target.runId);
      RunState s = checked.state();
      if (s.phase() != Phase.RUNNING && s.phase() != Phase.PAUSED) {
        throw RatchetException.contract(
            "RUN_ID: run "
                + target.runId
                + " is "
                + s.phase().wireName()
                + (s.phase() == Phase.NEEDS_REVIEW
                    ? ": a reviewer ends it with 'ratchet review decide "
                        + target.runId
                        + " --decision abort'"
                    : ": there is nothing to cancel"));
      }
      ApprovalPreview.requireTrusted(
          err(),
          session.operators(),
          session.settings().trustDir(Role.OPERATOR),
          signer,
          signing.force,
          "cancel");
      CancelRequest c =
          CancelRequest.of(
              signer.label(),
              s,
              checked.task().task(),
              reason,
              Decisions.nonce("cancel", services.entropy()));
      Decisions.deliver(session.store(), Ratchet.sign(c, signer));
      out()
          .println(
              "cancel of run "
                  + target.runId
                  + " by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ") delivered (nonce "
                  + c.nonce()
                  + "); "
                  + (s.pending() == null
                      ? "the run ends cancelled at its next recovery"
                      : "a write is pending: at its next recovery the run freezes in needs_review"
                          + " (cancel_requested) and a reviewer decides")
                  + session
                      .heldLease(target.runId)
                      .map(l -> " (leased now by " + l.owner() + ": once it lets go)")
                      .orElse("")
                  + ": "
                  + session.whoActsNext(checked.ref().taskId(), target.runId, "consumes it"));
      return 0;
    }
  }
}
