package dev.ratchet.outcome;

import dev.ratchet.model.ReviewCase;

/**
 * What each reviewer decision will do to an open case, in words (issue 39: review pages say what
 * each decision will do): the one text {@code review show} and the console's review pages share.
 */
public final class ReviewChoices {
  private ReviewChoices() {}

  /** What a replan does to {@code c}. */
  public static String replan(ReviewCase c) {
    String write =
        c.pending() == null
            ? ""
            : "the pending write's key is quarantined and it never runs under that key; ";
    return write
        + "the run goes on from the environment as a worker observes it then (a plan proposes the"
        + " step again as a new intent with a new key)";
  }

  /** What an abort does to {@code c}: the run ends failed, with the reason it will carry. */
  public static String abort(ReviewCase c) {
    return "the run ends failed ("
        + abortReason(c)
        + ")"
        + (c.pending() == null ? "" : "; the pending write never runs")
        + "; the evidence stays in the trace";
  }

  /** The stop reason an abort of {@code c} ends the run with. */
  public static String abortReason(ReviewCase c) {
    return switch (c.reason()) {
      case ReviewCase.ENVIRONMENT_DRIFT -> "environment_drift_reviewed";
      case ReviewCase.CANCEL_REQUESTED -> "cancel_reviewed";
      case ReviewCase.UNCERTAIN_EFFECT -> "uncertain_effect_reviewed";
      default -> "receipt_conflict_reviewed";
    };
  }
}
