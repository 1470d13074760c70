package dev.ratchet.console;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.Usage;
import dev.ratchet.ops.ChainAudit;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.RunViews;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Views;
import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Everything the console reads, verified like a worker verifies (checkpoint key ring, signed set
 * heads, whole chains for a run page) and shaped by the command line's own views, so {@code /api}
 * serves exactly what {@code --json} prints.
 */
final class Reads {
  private final ConsoleLauncher.Request config;

  Reads(ConsoleLauncher.Request config) {
    this.config = config;
  }

  private long now() {
    return config.services().clock().millis();
  }

  /** {@code /api/...}: the same documents as the command line's {@code --json}. */
  JsonObject api(String path) {
    String[] p = path.split("/");
    if (path.equals("/runs")) {
      try (Session s = ConsoleServer.open(config)) {
        List<JsonObject> rows = new ArrayList<>();
        Map<String, ScheduledRun> scheduling = RunViews.schedulingRows(s);
        List<CheckpointStore.RunRef> started = s.store().runs();
        for (CheckpointStore.RunRef ref : started) {
          rows.add(row(s, ref, scheduling));
        }
        // Issue 39: runs no worker started yet, or ended at claim, as 'status --json' lists them.
        rows.addAll(RunViews.notStarted(scheduling, started, now()));
        return JsonObject.builder()
            .put("store", s.settings().storeSpec().toString())
            .put("runs", Views.array(rows))
            .build();
      }
    }
    if (path.equals("/review")) {
      return JsonObject.builder().put("cases", Views.array(reviewShows(false))).build();
    }
    if (p.length == 3 && p[1].equals("runs")) {
      try (Session s = ConsoleServer.open(config)) {
        java.util.Optional<JsonObject> notStarted = RunViews.notStarted(s, p[2], now());
        if (notStarted.isPresent()) {
          return notStarted.get(); // no checkpoint: the scheduling row says what happened
        }
      }
      return inspect(p[2]).view();
    }
    if (p.length == 4 && p[1].equals("runs") && p[3].equals("review")) {
      try (Session s = ConsoleServer.open(config)) {
        return reviewShow(s, s.check(p[2]));
      }
    }
    throw RatchetException.contract("api: no resource " + path);
  }

  /** A status row, or the refusal when the run cannot be verified (as {@code status --json}). */
  private JsonObject row(
      Session s, CheckpointStore.RunRef ref, Map<String, ScheduledRun> scheduling) {
    try {
      return RunViews.status(s, ref, now(), scheduling);
    } catch (RatchetException e) {
      return Views.refused(
          ref.runId(), ref.taskId(), ref.generation(), e.code().name(), e.getMessage());
    }
  }

  /**
   * The runs page: status rows with what each needs from a human, those first. "Needs" is the
   * status row's own {@code waiting} (core's {@link dev.ratchet.outcome.Waiting}, as {@code status
   * --waiting} shows it): one rule for the CLI, the console and the worker.
   */
  List<JsonObject> runs(String phase) {
    List<JsonObject> rows = new ArrayList<>();
    try (Session s = ConsoleServer.open(config)) {
      Map<String, ScheduledRun> scheduling = RunViews.schedulingRows(s);
      for (CheckpointStore.RunRef ref : s.store().runs()) {
        JsonObject r = row(s, ref, scheduling);
        if (phase != null && !phase.isEmpty() && !phase.equals(Views.text(r, "phase"))) {
          continue;
        }
        rows.add(r.with("needs", new JsonString(needs(r))));
      }
    }
    rows.sort(Comparator.comparing((JsonObject r) -> Views.text(r, "needs").isEmpty()));
    return rows;
  }

  /** "approval", "approval_refresh" or "review" (", delivered" once in the inbox), else "". */
  static String needs(JsonObject runView) {
    if (!(runView.get("waiting").orElse(null) instanceof JsonObject w)) {
      return "";
    }
    // D37: a paused run is listed with who paused it.
    String by =
        runView.get("pause").orElse(null) instanceof JsonObject p
            ? " (paused by " + Views.text(p, "operator_id") + ")"
            : "";
    return Views.text(w, "for")
        + by
        + ("true".equals(Views.text(w, "delivered")) ? ", delivered" : "");
  }

  /** A run page's data: the inspect view after a whole-chain audit, and what the page adds. */
  Inspected inspect(String runId) {
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      Map<RecordSet, Long> counts =
          ChainAudit.verify(s.store(), c.ref().taskId(), runId, c.state());
      JsonObject view = RunViews.inspect(s, c, runId, now());
      Budgets b = c.task().task().budgets();
      Usage u = c.state().usage();
      String budgets =
          "proposals "
              + u.proposals()
              + "/"
              + b.maxProposals()
              + ", steps "
              + u.steps()
              + "/"
              + b.maxSteps()
              + ", cost "
              + u.cost()
              + "/"
              + b.maxCost()
              + ", wall time "
              + b.maxWallTimeMs()
              + " ms";
      String chain =
          "Hash chains verified against the signed checkpoint: trace "
              + counts.get(RecordSet.TRACE)
              + " events, receipts "
              + counts.get(RecordSet.RECEIPTS)
              + ", nonces "
              + counts.get(RecordSet.NONCES)
              + ".";
      return new Inspected(view, new Pages.RunExtras(budgets, chain, judged(s, c)));
    }
  }

  /**
   * What the run page says beyond the view (issue 39): whether the pending write needs an approval
   * under the task's policy (also while the run is frozen), who acts on a delivered decision (a
   * worker, for a run with a live scheduling row, else 'ratchet resume'), and what each reviewer
   * decision would do to an open case.
   */
  private static Pages.Judged judged(Session s, Session.Checked c) {
    dev.ratchet.model.PendingIntent p = c.state().pending();
    boolean required = p != null && c.task().task().requiresApproval(p.action().kind());
    String next = s.whoActsNext(c.ref().taskId(), c.ref().runId(), "applies it");
    dev.ratchet.model.ReviewCase rc = c.state().review();
    return new Pages.Judged(
        required,
        next,
        rc == null ? "" : dev.ratchet.outcome.ReviewChoices.replan(rc),
        rc == null ? "" : dev.ratchet.outcome.ReviewChoices.abort(rc));
  }

  /** Every open case with the live environment (review show --json), for the queue page. */
  List<JsonObject> reviewShows(boolean full) {
    List<JsonObject> out = new ArrayList<>();
    try (Session s = ConsoleServer.open(config)) {
      for (CheckpointStore.RunRef ref : s.store().runs()) {
        Session.Checked c;
        try {
          c = s.check(ref.runId());
        } catch (RatchetException e) {
          continue; // the runs page shows the refusal
        }
        if (c.state().phase() == Phase.NEEDS_REVIEW && c.state().review() != null) {
          out.add(
              full
                  ? reviewShow(s, c)
                  : RunViews.reviewRow(ref.runId(), ref.taskId(), c.state().review()));
        }
      }
    }
    return out;
  }

  private JsonObject reviewShow(Session s, Session.Checked c) {
    if (c.state().phase() != Phase.NEEDS_REVIEW || c.state().review() == null) {
      throw RatchetException.contract(
          "run "
              + c.ref().runId()
              + " is "
              + c.state().phase().wireName()
              + ", not frozen in needs_review");
    }
    // The stored observation and its age, never a live one (D30).
    return RunViews.reviewShow(
        c.ref().runId(), c.state().review(), RunViews.frozenAtMs(s, c), now());
  }

  record Inspected(JsonObject view, Pages.RunExtras extras) {}
}
