package dev.ratchet.cli;

import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.ops.ApprovalRules;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code approve} and {@code refresh-approval}: show the run's pending write (kind, target,
 * arguments), recompute its intent digest from exactly those arguments (D26), sign an approval
 * bound to it with the approver's own Ed25519 key (D19) and deliver it to the run's inbox (D12). A
 * key the run's trust root would refuse is refused here too (exit 2) unless {@code --force}. The
 * worker that next resumes the run consumes the approval.
 */
abstract class ApprovalCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Parameters(index = "0", paramLabel = "RUN_ID")
  String runId;

  @Mixin ApproverKey approverKey;

  @Option(
      names = "--force",
      description =
          "Sign even if this home's approver trust root does not hold the key (for operators who"
              + " know the worker holds a different trust root).")
  boolean force;

  @Option(
      names = "--ttl",
      paramLabel = "DURATION",
      defaultValue = "24h",
      description = "How long the approval is valid: 90s, 30m, 24h, 7d (default: 24h).")
  String ttl;

  @Option(
      names = "--proposals",
      paramLabel = "N",
      defaultValue = "100",
      description = "How many more proposals the approval stays valid for (default: 100).")
  long proposals;

  @Option(names = "--task", paramLabel = "TASK.json", description = "Task file of the run.")
  Path task;

  ApprovalCommand(Services services) {
    super(services);
  }

  /** True for refresh-approval: evidence must exist and be expired. */
  abstract boolean refresh();

  @Override
  public Integer call() {
    Duration validFor = Decisions.duration("--ttl", ttl);
    if (proposals < 1 || proposals > 1_000_000) {
      throw RatchetException.contract("--proposals: must be from 1 to 1000000");
    }
    SigningKey signer = approverKey.signer(common.settings(task).resolvedHome());
    try (Session session =
        Session.open(
            services, common.settings(task), StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
      Session.Checked c = session.check(runId);
      RunState s = c.state();
      PendingIntent p =
          ApprovalRules.requireApprovable(
              runId, s, c.task().task(), refresh(), services.clock().millis());
      ApprovalPreview.show(out(), c.adapter(), p);
      ApprovalPreview.requireDigest(c.adapter(), p);
      ApprovalPreview.requireTrusted(err(), session, signer, force);
      long now = services.clock().millis();
      Approval a =
          ApprovalRules.approval(
              signer.label(), s, c.task().task(), proposals, validFor, now, services.entropy());
      SignedEnvelope env = SignedEnvelope.sign(a.toJson(), signer);
      Decisions.deliver(session.store(), s, InboxItem.Kind.APPROVAL, a.nonce(), env);
      out()
          .println(
              (refresh() ? "refreshed approval" : "approval")
                  + " of "
                  + p.action().kind()
                  + " "
                  + p.action().actionId()
                  + " by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ") delivered to run "
                  + runId
                  + " (nonce "
                  + a.nonce()
                  + ", valid until "
                  + Instant.ofEpochMilli(a.expiresAtMs())
                  + " or proposal "
                  + a.expiresAtProposal()
                  + "); "
                  + session.whoActsNext(c.ref().taskId(), runId, "executes the write"));
      return 0;
    }
  }
}
