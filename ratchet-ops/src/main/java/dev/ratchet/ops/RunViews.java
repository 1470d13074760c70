package dev.ratchet.ops;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.InboxVerdict;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.RunState;
import dev.ratchet.schedule.ScheduledRun;
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
        .put("scheduling", scheduling(schedulingRows(session).get(key(taskId, runId)), now))
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

  /** The latest refusal reason per inbox nonce in the checked run's trace. */
  static Map<String, String> refusedReasons(Session session, Session.Checked c) {
    return refusedReasons(set(session, c, c.ref().runId(), RecordSet.TRACE));
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
    return status(session, ref, now, schedulingRows(session));
  }

  /** As above, with the store's scheduling rows read once for a whole listing. */
  public static JsonObject status(
      Session session, CheckpointStore.RunRef ref, long now, Map<String, ScheduledRun> rows) {
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
    JsonObject pause = pause(session, ref, c.state());
    view = view.with("scheduling", scheduling(rows.get(key(ref.taskId(), ref.runId())), now));
    view = cancel == null ? view : view.with("cancel", cancel);
    return pause == null ? view : view.with("pause", pause);
  }

  /**
   * The store's scheduling rows by task and run, in one read; empty when the store schedules
   * nothing.
   */
  public static Map<String, ScheduledRun> schedulingRows(Session session) {
    Map<String, ScheduledRun> out = new java.util.LinkedHashMap<>();
    session
        .schedulingIfAny()
        .ifPresent(s -> s.scheduled().forEach(r -> out.put(key(r.taskId(), r.runId()), r)));
    return out;
  }

  private static String key(String taskId, String runId) {
    return taskId + "\u0000" + runId;
  }

  /**
   * A run's scheduling row as operators read it (issue 39): its state since when, and why a worker
   * ended or parked it at claim ({@code reason}, with when and how long ago; null when no worker
   * gave one since the last claim). Null when the run has no row (started by hand).
   */
  public static JsonValue scheduling(ScheduledRun r, long now) {
    if (r == null) {
      return JsonNull.INSTANCE;
    }
    JsonObject.Builder b =
        JsonObject.builder()
            .put("state", r.state())
            .put("driver", r.driver())
            .put("since_ms", r.updatedAt().toEpochMilli())
            .put("reason", r.reason());
    if (r.reasonAt() == null) {
      b.put("reason_at_ms", JsonNull.INSTANCE).put("reason_age_ms", JsonNull.INSTANCE);
    } else {
      b.put("reason_at_ms", r.reasonAt().toEpochMilli())
          .put("reason_age_ms", Math.max(0, now - r.reasonAt().toEpochMilli()));
    }
    return b.build();
  }

  /**
   * The runs no checkpoint exists for (issue 39): submitted or scheduled and not started by a
   * worker yet, and those a worker ended at claim with a reason (never started: nothing else will
   * show them). Each as {@link #notStarted(ScheduledRun, long)}.
   */
  public static List<JsonObject> notStarted(
      Map<String, ScheduledRun> rows, List<CheckpointStore.RunRef> started, long now) {
    java.util.Set<String> checkpointed = new java.util.HashSet<>();
    started.forEach(r -> checkpointed.add(key(r.taskId(), r.runId())));
    List<JsonObject> out = new ArrayList<>();
    for (ScheduledRun r : rows.values()) {
      boolean shown = !r.state().equals("ended") || r.reason() != null;
      if (shown && !checkpointed.contains(key(r.taskId(), r.runId()))) {
        out.add(notStarted(r, now));
      }
    }
    return out;
  }

  /**
   * A run no worker has started: what it waits for and since when, no checkpoint to verify; {@code
   * ended_at_claim} with the worker's reason as its hint when a worker refused to start it.
   */
  public static JsonObject notStarted(ScheduledRun r, long now) {
    String status =
        r.state().equals("ended") ? "ended_at_claim" : r.submitted() ? "submitted" : "scheduled";
    long age = Math.max(0, now - r.updatedAt().toEpochMilli());
    return JsonObject.builder()
        .put("run_id", r.runId())
        .put("task_id", r.taskId())
        .put("status", status)
        .put("phase", status)
        .put("driver", r.driver())
        .put("schedule_state", r.state())
        .put("since_ms", r.updatedAt().toEpochMilli())
        .put("age_ms", age)
        .put("started", false)
        .put(
            "hint",
            r.reason() != null
                ? r.reason()
                : "not started yet: a 'ratchet worker' claims it, verifies its signed task and"
                    + " makes its first commit")
        .put("scheduling", scheduling(r, now))
        .build();
  }

  /** The not-started view of {@code runId}, if the store schedules it and has no checkpoint. */
  public static java.util.Optional<JsonObject> notStarted(Session session, String runId, long now) {
    if (!session.store().runs(runId).isEmpty()) {
      return java.util.Optional.empty();
    }
    return notStarted(schedulingRows(session), List.of(), now).stream()
        .filter(r -> Views.text(r, "run_id").equals(runId))
        .findFirst();
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
    return cancelled ? lastSigned(session, ref, s, CANCEL_EVENTS, "cancel_reason") : null;
  }

  /**
   * Who paused a paused run and why (D37), from the audited trace: {@code {operator_id, reason}};
   * null for a run that is not paused.
   */
  static JsonObject pause(Session session, CheckpointStore.RunRef ref, RunState s) {
    return s.phase() == dev.ratchet.model.Phase.PAUSED
        ? lastSigned(session, ref, s, java.util.Set.of("operator_paused"), "pause_reason")
        : null;
  }

  /** The operator and reason of the last authenticated trace event with one of {@code outcomes}. */
  private static JsonObject lastSigned(
      Session session,
      CheckpointStore.RunRef ref,
      RunState s,
      java.util.Set<String> outcomes,
      String reasonField) {
    long count = ChainAudit.verify(session.store(), ref.taskId(), ref.runId(), s, RecordSet.TRACE);
    JsonObject found = null;
    for (JsonObject e :
        Records.bodies(
            Records.upTo(session.store(), ref.taskId(), ref.runId(), RecordSet.TRACE, count))) {
      if (e.get("outcome").orElse(null) instanceof dev.ratchet.json.JsonString o
          && outcomes.contains(o.value())
          && e.get("detail").orElse(null) instanceof JsonObject d) {
        found =
            JsonObject.builder()
                .put("operator_id", Views.text(d, "operator_id"))
                .put("reason", Views.text(d, reasonField))
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
