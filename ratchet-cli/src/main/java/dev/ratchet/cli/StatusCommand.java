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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
      List<ScheduledRun> notStarted = notStarted(session, started);
      if (runId != null && session.store().runs(runId).isEmpty()) {
        // Issue 39: a submitted run is visible before any worker has started it.
        List<JsonValue> one = new ArrayList<>();
        notStarted.stream()
            .filter(r -> r.runId().equals(runId))
            .forEach(r -> one.add(scheduledRow(r, now)));
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
          rows.add(RunViews.status(session, ref, now));
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
        notStarted.forEach(r -> rows.add(scheduledRow(r, now)));
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

  /** Scheduled runs with no checkpoint yet (submitted or scheduled, not started by a worker). */
  private static List<ScheduledRun> notStarted(
      Session session, List<CheckpointStore.RunRef> checkpointed) {
    if (session.schedulingIfAny().isEmpty()) {
      return List.of();
    }
    Set<String> started = new HashSet<>();
    checkpointed.forEach(r -> started.add(r.taskId() + "\u0000" + r.runId()));
    return session.schedulingIfAny().orElseThrow().scheduled().stream()
        .filter(r -> !r.state().equals("ended"))
        .filter(r -> !started.contains(r.taskId() + "\u0000" + r.runId()))
        .toList();
  }

  /** A run no worker has started: what it waits for and since when, no checkpoint to verify. */
  private static JsonObject scheduledRow(ScheduledRun r, long now) {
    String status = r.submitted() ? "submitted" : "scheduled";
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
            "not started yet: a 'ratchet worker' claims it, verifies its signed task and makes its"
                + " first commit")
        .build();
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
      if (r.get("cancel").orElse(null) instanceof JsonObject cancel) {
        needs.add(
            Views.text(r, "run_id")
                + ": cancelled by "
                + Views.text(cancel, "operator_id")
                + (Views.text(cancel, "reason").isEmpty()
                    ? ""
                    : ": " + Views.text(cancel, "reason")));
      }
      if (r.get("waiting").orElseThrow() instanceof JsonObject w) {
        needs.add(Views.text(r, "run_id") + ": " + phase + ": " + Views.text(w, "hint"));
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
