package dev.ratchet.ops;

import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.Entropy;
import java.time.Duration;

/**
 * What {@code approve}, {@code refresh-approval} and the console's approve check and build before
 * an approver signs (SPEC §6, D26): one set of rules for every operator surface.
 */
public final class ApprovalRules {
  private ApprovalRules() {}

  /**
   * The run's pending write, if it is one an approver may sign now: the run is running, the write's
   * kind needs approval, and it holds no valid evidence (refresh: it holds expired evidence).
   * Refuses with {@code CONTRACT} (exit 2) and the reason otherwise.
   */
  public static PendingIntent requireApprovable(
      String runId, RunState s, TaskSpec task, boolean refresh, long now) {
    if (s.phase() == Phase.NEEDS_REVIEW && s.pending() != null) {
      throw RatchetException.contract(
          "run "
              + runId
              + " is frozen for review with "
              + s.pending().action().kind()
              + " "
              + s.pending().action().actionId()
              + " pending: an approval cannot be consumed until a reviewer decides ('ratchet"
              + " review show "
              + runId
              + "', then 'ratchet review decide "
              + runId
              + " --decision replan|abort --reviewer NAME')");
    }
    if (s.phase() != Phase.RUNNING) {
      throw RatchetException.contract(
          "run " + runId + " is " + s.phase().wireName() + ": there is no write to approve");
    }
    PendingIntent p = s.pending();
    if (p == null) {
      throw RatchetException.contract(
          "run " + runId + " has no pending write: there is nothing to approve");
    }
    if (!task.requiresApproval(p.action().kind())) {
      throw RatchetException.contract(
          "the task's policy does not require approval for " + p.action().kind());
    }
    if (p.approval() == null && refresh) {
      throw RatchetException.contract(
          "the pending write has no approval evidence to refresh: use 'ratchet approve "
              + runId
              + "'");
    }
    if (p.approval() != null) {
      Approval held = Approval.fromJson(p.approval().payload(), "pending.approval.payload");
      boolean expired =
          held.expiresAtMs() <= now || held.expiresAtProposal() < s.usage().proposals();
      if (!expired) {
        throw RatchetException.contract(
            "the pending write already holds valid approval evidence (nonce "
                + held.nonce()
                + "): 'ratchet resume "
                + runId
                + "' executes it");
      }
      if (!refresh) {
        throw RatchetException.contract(
            "the pending write's approval evidence expired: use 'ratchet refresh-approval "
                + runId
                + "'");
      }
    }
    return p;
  }

  /**
   * Refuses (CONTRACT, exit 2) unless the digest of exactly the shown arguments equals the pending
   * intent's digest: an approval never signs something other than what was shown.
   */
  public static void requireDigest(EnvironmentAdapter adapter, PendingIntent p) {
    Action a = p.action();
    String recomputed =
        new WriteIntent(adapter.namespace(), a.kind(), a.arguments(), a.risk()).digest();
    if (!recomputed.equals(p.intentDigest())) {
      throw RatchetException.contract(
          "the pending write's intent digest "
              + p.intentDigest()
              + " is not the digest "
              + recomputed
              + " of the arguments shown: refusing to sign");
    }
  }

  /**
   * An approval of {@code s}'s pending write by {@code approverId}, valid for {@code validFor} and
   * {@code proposals} more proposals, with a fresh single-use nonce.
   */
  public static Approval approval(
      String approverId,
      RunState s,
      TaskSpec task,
      long proposals,
      Duration validFor,
      long now,
      Entropy entropy) {
    return Approval.ofPending(
        approverId,
        s,
        task,
        s.usage().proposals() + proposals,
        now + validFor.toMillis(),
        Decisions.nonce("approval", entropy));
  }
}
