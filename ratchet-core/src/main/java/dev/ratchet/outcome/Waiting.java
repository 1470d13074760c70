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
import java.util.Map;
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
 * @param refused when nothing is delivered but a worker refused an item addressed to what the run
 *     waits for: the reason it gave (e.g. {@code untrusted_signer}); null otherwise (issue 39)
 */
public record Waiting(For what, boolean delivered, String hint, String refused) {
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
    if (delivered && refused != null) {
      throw new IllegalArgumentException("a delivered item is not a refused one");
    }
  }

  /** A wait with no refused item. */
  public Waiting(For what, boolean delivered, String hint) {
    this(what, delivered, hint, null);
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
    return of(s, task, inbox, nowMs, approvers, reviewers, Map.of());
  }

  /**
   * As above, knowing which inbox items a worker already refused ({@code refused}: nonce to reason,
   * from the run's traced refusals): a refused item is never counted as delivered, so no surface
   * says it waits to be consumed (issue 39); when the only items addressed to what the run waits
   * for were refused, the hint says so, with the reason and who acts next.
   */
  public static Optional<Waiting> of(
      RunState s,
      TaskSpec task,
      List<InboxItem> inbox,
      long nowMs,
      TrustRoot approvers,
      TrustRoot reviewers,
      Map<String, String> refused) {
    Objects.requireNonNull(refused, "refused");
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
      Found found =
          s.review() == null
              ? Found.NONE
              : find(
                  inbox,
                  InboxItem.Kind.REVIEW_DECISION,
                  s,
                  "case_id",
                  s.review().caseId(),
                  approvers,
                  reviewers,
                  refused);
      String decide =
          "'ratchet review show "
              + run
              + "', then 'ratchet review decide "
              + run
              + " --decision replan|abort --reviewer NAME'";
      return Optional.of(
          new Waiting(
              For.REVIEW,
              found.delivered(),
              found.delivered()
                  ? consume(run, "a reviewer decision")
                  : found.refusedReason() != null
                      ? refusedHint("a reviewer decision", found.refusedReason())
                          + "; a trusted reviewer decides again: "
                          + decide
                      : "a reviewer decides: " + decide,
              found.refusedReason()));
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
    Found found =
        find(
            inbox,
            InboxItem.Kind.APPROVAL,
            s,
            "action_id",
            p.action().actionId(),
            approvers,
            reviewers,
            refused);
    String command = what == For.APPROVAL ? "approve" : "refresh-approval";
    String sign =
        "'ratchet "
            + command
            + " "
            + run
            + " --approver NAME' (it shows "
            + p.action().kind()
            + " "
            + p.action().actionId()
            + " first)";
    return Optional.of(
        new Waiting(
            what,
            found.delivered(),
            found.delivered()
                ? consume(run, "an approval")
                : found.refusedReason() != null
                    ? refusedHint("an approval", found.refusedReason())
                        + "; a trusted approver signs again: "
                        + sign
                    : "an approver signs: " + sign,
            found.refusedReason()));
  }

  /**
   * What the inbox holds for the run's need: a verified item no worker refused ({@code delivered}),
   * else the reason a worker gave for refusing one addressed to it, else nothing.
   */
  private record Found(boolean delivered, String refusedReason) {
    static final Found NONE = new Found(false, null);
  }

  private static Found find(
      List<InboxItem> inbox,
      InboxItem.Kind kind,
      RunState s,
      String member,
      String value,
      TrustRoot approvers,
      TrustRoot reviewers,
      Map<String, String> refused) {
    String refusedReason = null;
    for (InboxItem i : inbox) {
      if (i.kind() != kind) {
        continue;
      }
      // Cancels are not what a waiting run needs; no operator root is consulted here.
      InboxVerdict v = InboxVerdict.of(i, approvers, reviewers, null);
      boolean addressed =
          s.taskId().equals(v.text("task_id"))
              && s.runId().equals(v.text("run_id"))
              && value.equals(v.text(member));
      if (!addressed) {
        continue;
      }
      String reason = refused.get(i.nonce());
      if (reason != null) {
        refusedReason = reason; // judged already: never "waiting to be consumed"
      } else if (v.verified()) {
        return new Found(true, null);
      }
    }
    return new Found(false, refusedReason);
  }

  private static String refusedHint(String what, String reason) {
    return what
        + " in the inbox was refused by a worker ("
        + reason
        + (reason.equals("untrusted_signer")
            ? "; once its signer is trusted on the workers, a worker judges it again"
            : "")
        + ")";
  }

  private static String consume(String run, String what) {
    return what
        + " is in the inbox: a worker consumes it ('ratchet resume "
        + run
        + "', or a running 'ratchet worker')";
  }
}
