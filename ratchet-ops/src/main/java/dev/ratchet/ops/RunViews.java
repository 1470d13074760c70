package dev.ratchet.ops;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.InboxVerdict;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.RunState;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole-run JSON views the command line prints with {@code --json} and the console serves under
 * {@code /api}: one place, so both always show the same data.
 */
public final class RunViews {
  private RunViews() {}

  /** What {@code inspect --json} prints: every verified record of one run (docs/cli.md). */
  public static JsonObject inspect(Session session, Session.Checked c, String runId, long now) {
    RunState s = c.state();
    String taskId = c.ref().taskId();
    List<JsonObject> trace = set(session, c, runId, RecordSet.TRACE);
    List<JsonValue> sealed = new ArrayList<>();
    for (JsonObject e : trace) {
      String outcome = Views.text(e, "outcome");
      if (outcome.equals("review_replanned") || outcome.equals("review_aborted")) {
        JsonObject d = (JsonObject) e.get("detail").orElseThrow();
        sealed.add(
            JsonObject.builder()
                .put("trace_sequence", e.get("sequence").orElseThrow())
                .put("decision", Views.text(d, "decision"))
                .put("reviewer_id", Views.text(d, "reviewer_id"))
                .put("case", d.get("sealed_case").orElse(JsonNull.INSTANCE))
                .build());
      }
    }
    List<JsonValue> inbox = new ArrayList<>();
    Map<String, String> refused = refusedReasons(trace);
    for (InboxItem item : session.store().inbox(taskId, runId)) {
      inbox.add(
          Views.inboxItem(
              item,
              refused.get(item.nonce()),
              InboxVerdict.of(
                  item, session.approvers(), session.reviewers(), session.operators())));
    }
    JsonObject.Builder view = JsonObject.builder();
    if (session.store() instanceof dev.ratchet.jdbc.ShardedStore sharded) {
      // Issue 44: which cluster holds the run (the store reads all of them).
      view.put("cluster", sharded.clusterOf(runId).orElse(""));
    }
    return view.put(
            "run",
            Views.run(
                runId,
                taskId,
                c.ref().generation(),
                s,
                c.task().plan().size(),
                session.heldLease(runId),
                session.waiting(c),
                now))
        .put("checkpoint_key_id", session.signingKeyId(c.ref()))
        .put(
            "pending",
            s.pending() == null ? JsonNull.INSTANCE : Views.pending(s.pending(), now, false))
        .put("review", s.review() == null ? JsonNull.INSTANCE : Views.review(s.review()))
        .put("sealed_reviews", Views.array(sealed))
        .put("receipts", Views.array(set(session, c, runId, RecordSet.RECEIPTS)))
        .put("consumed_nonces", Views.array(set(session, c, runId, RecordSet.NONCES)))
        .put("inbox", Views.array(inbox))
        .put("quarantined_keys", Views.array(set(session, c, runId, RecordSet.QUARANTINED_KEYS)))
        .put("trace", Views.array(trace))
        .build();
  }

  /** The latest refusal reason per nonce, from the trace events that carry {@code refusals}. */
  private static Map<String, String> refusedReasons(List<JsonObject> trace) {
    Map<String, String> out = new HashMap<>();
    for (JsonObject e : trace) {
      if (e.get("detail").orElse(null) instanceof JsonObject d
          && d.get("refusals").orElse(null) instanceof JsonArray refusals) {
        for (JsonValue r : refusals.items()) {
          JsonObject o = (JsonObject) r;
          out.put(Views.text(o, "nonce"), Views.text(o, "reason"));
        }
      }
    }
    return out;
  }

  private static List<JsonObject> set(
      Session session, Session.Checked c, String runId, RecordSet set) {
    long count = c.state().head(set).count();
    return Records.bodies(Records.upTo(session.store(), c.ref().taskId(), runId, set, count));
  }

  /**
   * One row of {@code status --json}: the verified run, or a {@code RatchetException} when it
   * cannot be verified (the caller shows it as refused).
   */
  public static JsonObject status(Session session, CheckpointStore.RunRef ref, long now) {
    Session.Checked c = session.check(ref.runId());
    JsonObject view =
        Views.run(
            ref.runId(),
            ref.taskId(),
            ref.generation(),
            c.state(),
            c.task().plan().size(),
            session.heldLease(ref.runId()),
            session.waiting(c),
            now);
    JsonObject cancel = cancel(session, ref, c.state());
    return cancel == null ? view : view.with("cancel", cancel);
  }

  /** Trace outcomes that carry an operator's signed cancel (who and why). */
  private static final java.util.Set<String> CANCEL_EVENTS =
      java.util.Set.of("operator_cancelled", "cancel_requested");

  /**
   * Who cancelled a run and why (issue 39), from the audited trace, for a run a cancel ended or
   * froze: {@code {operator_id, reason}}; null for any other run (no trace is read for those).
   */
  static JsonObject cancel(Session session, CheckpointStore.RunRef ref, RunState s) {
    String stop = s.stopReason() == null ? "" : s.stopReason();
    boolean cancelled =
        stop.equals("cancelled_by_operator")
            || stop.equals("cancel_reviewed")
            || (s.review() != null && ReviewCase.CANCEL_REQUESTED.equals(s.review().reason()));
    if (!cancelled) {
      return null;
    }
    long count = ChainAudit.verify(session.store(), ref.taskId(), ref.runId(), s, RecordSet.TRACE);
    JsonObject found = null;
    for (JsonObject e :
        Records.bodies(
            Records.upTo(session.store(), ref.taskId(), ref.runId(), RecordSet.TRACE, count))) {
      if (e.get("outcome").orElse(null) instanceof dev.ratchet.json.JsonString o
          && CANCEL_EVENTS.contains(o.value())
          && e.get("detail").orElse(null) instanceof JsonObject d) {
        found =
            JsonObject.builder()
                .put("operator_id", Views.text(d, "operator_id"))
                .put("reason", Views.text(d, "cancel_reason"))
                .build();
      }
    }
    return found;
  }

  /**
   * What {@code review show --json} prints: the open case and the environment as the run stored it
   * at the freeze, with when it was observed and its age (D30: operator surfaces run no adapter
   * tooling against the live environment; a worker compares a decision with its own observation).
   *
   * @param observedAtMs when the stored observation was made (the freeze), or -1 when unknown
   */
  public static JsonObject reviewShow(String runId, ReviewCase rc, long observedAtMs, long nowMs) {
    return JsonObject.builder()
        .put("run_id", runId)
        .put("case", Views.review(rc))
        .put("stored_observation", rc.observation().toJson())
        .put(
            "observed_at_ms",
            observedAtMs < 0 ? JsonNull.INSTANCE : new dev.ratchet.json.JsonInt(observedAtMs))
        .put(
            "observation_age_ms",
            observedAtMs < 0
                ? JsonNull.INSTANCE
                : new dev.ratchet.json.JsonInt(Math.max(0, nowMs - observedAtMs)))
        .put(
            "decisions",
            JsonObject.builder()
                .put("replan", dev.ratchet.outcome.ReviewChoices.replan(rc))
                .put("abort", dev.ratchet.outcome.ReviewChoices.abort(rc))
                .build())
        .build();
  }

  /**
   * When the open case's observation was stored: the time of the trace event that froze the run
   * (the first one carrying its case id), or -1.
   */
  public static long frozenAtMs(Session session, Session.Checked c) {
    String caseId = c.state().review().caseId();
    for (JsonObject e : set(session, c, c.ref().runId(), RecordSet.TRACE)) {
      if (e.get("detail").orElse(null) instanceof JsonObject d
          && caseId.equals(Views.text(d, "case_id"))) {
        try {
          return Long.parseLong(Views.text(e, "at_ms"));
        } catch (NumberFormatException x) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** One row of {@code review list --json}. */
  public static JsonObject reviewRow(String runId, String taskId, ReviewCase c) {
    return JsonObject.builder()
        .put("run_id", runId)
        .put("task_id", taskId)
        .put("case_id", c.caseId())
        .put("reason", c.reason())
        .put("action_id", c.pending() == null ? null : c.pending().action().actionId())
        .build();
  }
}
