package dev.ratchet.cli;

import dev.ratchet.cli.internal.RunViews;
import dev.ratchet.cli.internal.Services;
import dev.ratchet.cli.internal.Session;
import dev.ratchet.cli.internal.Table;
import dev.ratchet.cli.internal.Views;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.store.CheckpointStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
      List<CheckpointStore.RunRef> refs =
          runId == null ? session.store().runs() : List.of(session.find(runId));
      List<JsonValue> rows = new ArrayList<>();
      int exit = 0;
      long now = services.clock().millis();
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
      if (waiting) {
        rows.removeIf(v -> !(((JsonObject) v).get("waiting").orElse(null) instanceof JsonObject));
      }
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
      return exit;
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
