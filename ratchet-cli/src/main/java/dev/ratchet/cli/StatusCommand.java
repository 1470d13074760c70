package dev.ratchet.cli;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.ops.RunViews;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Views;
import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.store.CheckpointStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ratchet status [RUN_ID]}: every run (or one), verified, as a table or JSON. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Show runs with their verified phase (awaiting_approval or awaiting_review when a person"
            + " must act), plan step, pending write and lease. A run whose checkpoint fails"
            + " verification is shown as refused (exit 3).")
final class StatusCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Parameters(index = "0", arity = "0..1", paramLabel = "RUN_ID")
  String runId;

  @Option(names = "--json", description = "Print JSON instead of a table.")
  boolean json;

  @Option(
      names = "--waiting",
      description =
          "Only the runs that need a person: awaiting_approval (an approval or a refreshed one)"
              + " or awaiting_review, each with the command that unblocks it.")
  boolean waiting;

  @Option(names = "--task", paramLabel = "TASK.json", description = "Task file (with RUN_ID).")
  Path task;

  StatusCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    try (Session session = common.openExisting(services, task)) {
      long now = services.clock().millis();
      List<CheckpointStore.RunRef> started = session.store().runs();
      Map<String, ScheduledRun> scheduling = RunViews.schedulingRows(session);
      List<JsonObject> notStarted = RunViews.notStarted(scheduling, started, now);
      if (runId != null && session.store().runs(runId).isEmpty()) {
        // Issue 39: a submitted run is visible before any worker has started it, and one a
        // worker refused to start shows why.
        List<JsonValue> one = new ArrayList<>();
        notStarted.stream().filter(r -> Views.text(r, "run_id").equals(runId)).forEach(one::add);
        if (!one.isEmpty()) {
          render(session, one);
          return 0;
        }
      }
      List<CheckpointStore.RunRef> refs = runId == null ? started : List.of(session.find(runId));
      List<JsonValue> rows = new ArrayList<>();
      int exit = 0;
      for (CheckpointStore.RunRef ref : refs) {
        try {
          rows.add(RunViews.status(session, ref, now, scheduling));
        } catch (RatchetException e) {
          if (runId != null && e.code().exitCode() != 3) {
            throw e;
          }
          exit = exit == 0 ? e.code().exitCode() : exit;
          rows.add(
              Views.refused(
                  ref.runId(), ref.taskId(), ref.generation(), e.code().name(), e.getMessage()));
        }
      }
      if (runId == null) {
        rows.addAll(notStarted);
      }
      if (waiting) {
        rows.removeIf(v -> !(((JsonObject) v).get("waiting").orElse(null) instanceof JsonObject));
      }
      render(session, rows);
      return exit;
    }
  }

  private void render(Session session, List<JsonValue> rows) {
    if (json) {
      out()
          .println(
              Canonical.string(
                  JsonObject.builder()
                      .put("store", session.settings().storeSpec().toString())
                      .put("runs", Views.array(rows))
                      .build()));
    } else {
      print(rows);
    }
  }

  private void print(List<JsonValue> rows) {
    if (rows.isEmpty()) {
      out()
          .println(
              waiting
                  ? "no run needs a person"
                  : "no runs in the store ('ratchet run TASK.json' starts one)");
      return;
    }
    Table t = new Table("RUN", "TASK", "GEN", "PHASE", "STEP", "PENDING", "LEASE");
    List<String> problems = new ArrayList<>();
    List<String> needs = new ArrayList<>();
    for (JsonValue v : rows) {
      JsonObject r = (JsonObject) v;
      if (r.has("started")) {
        t.row(
            Views.text(r, "run_id"),
            Views.text(r, "task_id"),
            "-",
            Views.text(r, "status") + " (" + Views.text(r, "age_ms") + " ms ago)",
            "-",
            "-",
            "-");
        needs.add(Views.text(r, "run_id") + ": " + Views.text(r, "hint"));
        continue;
      }
      if (r.get("verified").orElseThrow().toString().equals("false")) {
        t.row(
            Views.text(r, "run_id"),
            Views.text(r, "task_id"),
            Views.text(r, "generation"),
            "REFUSED",
            "-",
            "-",
            "-");
        problems.add(Views.text(r, "run_id") + ": " + Views.text(r, "problem"));
        continue;
      }
      String phase = Views.text(r, "status");
      String reason = Views.text(r, "stop_reason");
      for (String by : new String[] {"cancel", "pause"}) {
        if (r.get(by).orElse(null) instanceof JsonObject who) {
          needs.add(
              Views.text(r, "run_id")
                  + (by.equals("cancel") ? ": cancelled by " : ": paused by ")
                  + Views.text(who, "operator_id")
                  + (Views.text(who, "reason").isEmpty() ? "" : ": " + Views.text(who, "reason")));
        }
      }
      if (r.get("waiting").orElseThrow() instanceof JsonObject w) {
        needs.add(Views.text(r, "run_id") + ": " + phase + ": " + Views.text(w, "hint"));
      }
      String claimReason = claimReason(r);
      if (!claimReason.isEmpty()) {
        needs.add(Views.text(r, "run_id") + ": " + claimReason);
      }
      t.row(
          Views.text(r, "run_id"),
          Views.text(r, "task_id"),
          Views.text(r, "generation"),
          reason.isEmpty() ? phase : phase + " (" + reason + ")",
          Views.text(r, "cursor") + "/" + Views.text(r, "plan_steps"),
          pending(r),
          lease(r));
    }
    t.print(out());
    for (String p : problems) {
      out().println("refused " + p);
    }
    needs.forEach(out()::println);
  }

  /**
   * Why a worker parked a started run at claim (issue 39), with how long ago; "" when no worker
   * gave a reason since the run's last claim, or the run has ended since (resumed by hand).
   */
  private static String claimReason(JsonObject r) {
    if (!(r.get("scheduling").orElse(null) instanceof JsonObject s)
        || Views.text(s, "reason").isEmpty()
        || List.of("completed", "failed", "cancelled").contains(Views.text(r, "phase"))) {
      return "";
    }
    return Views.text(s, "reason") + " (" + Views.text(s, "reason_age_ms") + " ms ago)";
  }

  private static String pending(JsonObject r) {
    if (!(r.get("pending").orElseThrow() instanceof JsonObject p)) {
      return "-";
    }
    String s = Views.text(p, "kind") + " " + Views.text(p, "action_id");
    return p.get("approval").orElseThrow() instanceof JsonObject ? s + " (approved)" : s;
  }

  private static String lease(JsonObject r) {
    if (!(r.get("lease").orElseThrow() instanceof JsonObject l)) {
      return "-";
    }
    return Views.text(l, "owner") + " until " + Views.text(l, "expires_at");
  }
}
