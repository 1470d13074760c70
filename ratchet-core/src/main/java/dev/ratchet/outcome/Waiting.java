package dev.ratchet.outcome;

import dev.ratchet.model.Approval;
import dev.ratchet.model.InboxVerdict;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.InboxItem;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run waits for from a person, if anything (issue 17): the one rule the CLI's {@code
 * status}, the console and the worker share. A run frozen in {@code needs_review} waits for a
 * reviewer; a running run whose pending write needs an approval it does not hold (or holds only
 * expired) waits for an approver. A run with valid evidence, or nothing pending, waits for no one
 * but a worker.
 *
 * @param what the machine code: {@code approval}, {@code approval_refresh}, {@code review} or
 *     {@code unpause}
 * @param delivered true when a decision of the kind it needs is already in the inbox: then it waits
 *     for a worker to consume it (or refuse it)
 * @param hint a human sentence with the command that unblocks the run
 */
public record Waiting(For what, boolean delivered, String hint) {
  /** What the run waits for; {@link #wireName()} is the machine code. */
  public enum For {
    APPROVAL("approval"),
    APPROVAL_REFRESH("approval_refresh"),
    REVIEW("review"),
    /** A paused run waits for an operator's signed unpause (D37). */
    UNPAUSE("unpause");

    private final String wireName;

    For(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }

  public Waiting {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(hint, "hint");
  }

  /**
   * {@code awaiting_review} or {@code awaiting_approval}: the status shown instead of the phase.
   */
  public String status() {
    if (what == For.UNPAUSE) {
      return "paused";
    }
    return what == For.REVIEW ? "awaiting_review" : "awaiting_approval";
  }

  /**
   * What {@code s} waits for from a person, judged at {@code nowMs}; {@code inbox} is the run's
   * unconsumed inbox. An item counts as delivered only when it verifies ({@link InboxVerdict}: the
   * role's trust root, the signer's name) and is addressed to this run and to what it waits for
   * (the pending action, the open case): anyone who can write to an inbox cannot make a run look
   * decided (D30).
   */
  public static Optional<Waiting> of(
      RunState s,
      TaskSpec task,
      List<InboxItem> inbox,
      long nowMs,
      TrustRoot approvers,
      TrustRoot reviewers) {
    String run = s.runId();
    if (s.phase() == Phase.PAUSED) {
      // Who paused it and why are in its trace; a delivered unpause is not judged here (it needs
      // the operators' trust root): the worker that consumes it says.
      return Optional.of(
          new Waiting(
              For.UNPAUSE,
              false,
              "an operator unpauses it: 'ratchet unpause "
                  + run
                  + " --operator NAME' (or migrates it to a new task version: 'ratchet"
                  + " migrate "
                  + run
                  + " --task NEW.json', or cancels it)"));
    }
    if (s.phase() == Phase.NEEDS_REVIEW) {
      boolean delivered =
          s.review() != null
              && has(
                  inbox,
                  InboxItem.Kind.REVIEW_DECISION,
                  s,
                  "case_id",
                  s.review().caseId(),
                  approvers,
                  reviewers);
      return Optional.of(
          new Waiting(
              For.REVIEW,
              delivered,
              delivered
                  ? consume(run, "a reviewer decision")
                  : "a reviewer decides: 'ratchet review show "
                      + run
                      + "', then 'ratchet review decide "
                      + run
                      + " --decision replan|abort --reviewer NAME'"));
    }
    PendingIntent p = s.pending();
    if (s.phase() != Phase.RUNNING || p == null || !task.requiresApproval(p.action().kind())) {
      return Optional.empty();
    }
    For what;
    if (p.approval() == null) {
      what = For.APPROVAL;
    } else {
      Approval held = Approval.fromJson(p.approval().payload(), "pending.approval.payload");
      boolean expired =
          held.expiresAtMs() <= nowMs || held.expiresAtProposal() < s.usage().proposals();
      if (!expired) {
        return Optional.empty(); // approved: a worker executes it
      }
      what = For.APPROVAL_REFRESH;
    }
    boolean delivered =
        has(
            inbox,
            InboxItem.Kind.APPROVAL,
            s,
            "action_id",
            p.action().actionId(),
            approvers,
            reviewers);
    String command = what == For.APPROVAL ? "approve" : "refresh-approval";
    return Optional.of(
        new Waiting(
            what,
            delivered,
            delivered
                ? consume(run, "an approval")
                : "an approver signs: 'ratchet "
                    + command
                    + " "
                    + run
                    + " --approver NAME' (it shows "
                    + p.action().kind()
                    + " "
                    + p.action().actionId()
                    + " first)"));
  }

  private static boolean has(
      List<InboxItem> inbox,
      InboxItem.Kind kind,
      RunState s,
      String member,
      String value,
      TrustRoot approvers,
      TrustRoot reviewers) {
    for (InboxItem i : inbox) {
      if (i.kind() != kind) {
        continue;
      }
      // Cancels are not what a waiting run needs; no operator root is consulted here.
      InboxVerdict v = InboxVerdict.of(i, approvers, reviewers, null);
      if (v.verified()
          && s.taskId().equals(v.text("task_id"))
          && s.runId().equals(v.text("run_id"))
          && value.equals(v.text(member))) {
        return true;
      }
    }
    return false;
  }

  private static String consume(String run, String what) {
    return what
        + " is in the inbox: a worker consumes it ('ratchet resume "
        + run
        + "', or a running 'ratchet worker')";
  }
}
