package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.PauseDecision;
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
 * {@code ratchet pause RUN_ID} and {@code ratchet unpause RUN_ID} (SPEC D37): sign the decision
 * with the operator's own Ed25519 key (D19) and deliver it to the run's inbox (D12). The worker
 * that next holds the run consumes it under its lease at a step boundary with nothing pending; a
 * paused run holds no lease and no thread and moves again only after a signed unpause.
 */
abstract class PauseCommand extends CliCommand {
  @Mixin RunOptions target;

  @Mixin OperatorKeyOptions signing;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      defaultValue = "operator request",
      description = "Why; signed, traced and shown by status (default: operator request).")
  String reason;

  private final PauseDecision.Kind decision;

  PauseCommand(Services services, PauseDecision.Kind decision) {
    super(services);
    this.decision = decision;
  }

  @Override
  public Integer call() {
    SigningKey signer = signing.signer(target.common.settings(target.task).resolvedHome());
    Phase from = decision == PauseDecision.Kind.PAUSE ? Phase.RUNNING : Phase.PAUSED;
    try (Session session = target.open(services)) {
      Session.Checked checked = session.check(target.runId);
      RunState s = checked.state();
      if (s.phase() != from) {
        throw RatchetException.contract(
            "RUN_ID: run "
                + target.runId
                + " is "
                + s.phase().wireName()
                + ": only a "
                + from.wireName()
                + " run can be "
                + (decision == PauseDecision.Kind.PAUSE ? "paused" : "unpaused"));
      }
      ApprovalPreview.requireTrusted(
          err(),
          session.operators(),
          session.settings().trustDir(Role.OPERATOR),
          signer,
          signing.force,
          decision.wireName());
      PauseDecision d =
          PauseDecision.of(
              decision,
              signer.label(),
              s,
              checked.task().task(),
              reason,
              Decisions.nonce(decision.wireName(), services.entropy()));
      Decisions.deliver(session.store(), Ratchet.sign(d, signer));
      out()
          .println(
              decision.wireName()
                  + " of run "
                  + target.runId
                  + " by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ") delivered (nonce "
                  + d.nonce()
                  + "); "
                  + (decision == PauseDecision.Kind.PAUSE
                      ? "the run stops at its next step boundary (a write in flight completes"
                          + " first) and holds no lease until a signed unpause"
                      : "the run goes on from where it paused")
                  + ": "
                  + session.whoActsNext(checked.ref().taskId(), target.runId, "consumes it"));
      return 0;
    }
  }

  /** {@code ratchet pause}. */
  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description =
          "Sign a pause of a running run with the operator's own key and deliver it to the run's"
              + " inbox. The run stops at its next step boundary (a write in flight completes"
              + " first), holds no lease and no worker thread, and is claimed again only after a"
              + " signed unpause.")
  static final class Pause extends PauseCommand {
    Pause(Services services) {
      super(services, PauseDecision.Kind.PAUSE);
    }
  }

  /** {@code ratchet unpause} (not {@code resume}, which recovers a run). */
  @Command(
      name = "unpause",
      mixinStandardHelpOptions = true,
      description =
          "Sign an unpause of a paused run with the operator's own key and deliver it; the next"
              + " worker that claims the run consumes it and drives the run on.")
  static final class Unpause extends PauseCommand {
    Unpause(Services services) {
      super(services, PauseDecision.Kind.UNPAUSE);
    }
  }
}
