package dev.ratchet.chaos;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The task files of the worker-fleet bench and campaign ({@code ratchet-task/1}, the format {@code
 * ratchet run} reads). No write needs an approval: the runs go from enqueue to end with no command
 * typed.
 */
final class FleetTasks {
  /** Steps in a short workspace run: read, append, check, finish. */
  static final int SHORT_STEPS = 4;

  /** Orders each ledger run places; each must be in its service's ledger exactly once. */
  static final int LEDGER_ORDERS = 2;

  private static final String FILE = "notes.txt";
  private static final String START = "notes\n";

  private FleetTasks() {}

  /**
   * A short run on a workspace directory of its own: read a file, append a line, check the files
   * against the verifier (finish needs a passing verification, so without it every run would end
   * failed), finish.
   */
  static Path shortRun(Path dir, String runId) throws IOException {
    List<JsonValue> plan = new ArrayList<>();
    plan.add(step("read", "read_file", JsonObject.builder().put("path", FILE).build()));
    plan.add(
        step(
            "append",
            "append_file",
            JsonObject.builder()
                .put("path", FILE)
                .put("content", "run " + runId + "\n")
                .put("expected_sha256", Canonical.sha256Hex(START))
                .build()));
    plan.add(
        step("check", "run_tests", JsonObject.builder().put("target", "expected-files").build()));
    plan.add(step("done", "finish", JsonObject.EMPTY));
    JsonObject task =
        task("fleet-short", "workspace", List.of("workspace.read", "workspace.write", "tests.run"))
            .put("action_kinds", texts("read_file", "append_file", "run_tests"))
            .put("targets", texts(FILE, "expected-files"))
            .put(
                "environment",
                JsonObject.builder()
                    .put("files", JsonObject.builder().put(FILE, START).build())
                    .build())
            .put(
                "verifier",
                JsonObject.builder()
                    .put(
                        "expected_files",
                        JsonObject.builder().put(FILE, START + "run " + runId + "\n").build())
                    .build())
            .build();
    Path ws = dir.resolve("ws").resolve(runId);
    return write(
        dir, runId, task, JsonObject.builder().put("directory", ws.toString()).build(), plan);
  }

  /** A run against a reference ledger service of its own: two orders, a check, finish. */
  static Path ledgerRun(Path dir, String runId, String baseUrl, Path secretFile)
      throws IOException {
    List<JsonValue> plan = new ArrayList<>();
    for (int i = 1; i <= LEDGER_ORDERS; i++) {
      plan.add(
          step(
              "order-" + i,
              "create_order",
              JsonObject.builder()
                  .put("account", "acme")
                  .put("sku", "sku-" + i)
                  .put("quantity", i)
                  .put("unit_price_cents", 100)
                  .build()));
    }
    plan.add(step("check", "check_account", JsonObject.builder().put("account", "acme").build()));
    plan.add(step("done", "finish", JsonObject.EMPTY));
    JsonObject expect =
        JsonObject.builder()
            .put("orders", LEDGER_ORDERS)
            .put("ordered_cents", 300)
            .put("paid_cents", 0)
            .build();
    JsonObject task =
        task("fleet-ledger", "ledger", List.of("ledger.read", "ledger.write", "ledger.verify"))
            .put("action_kinds", texts("create_order", "check_account"))
            .put("targets", texts("acme"))
            .put("environment", JsonObject.builder().put("revision", 0).build())
            .put(
                "verifier",
                JsonObject.builder()
                    .put("expect", JsonObject.builder().put("acme", expect).build())
                    .build())
            .build();
    JsonObject connect =
        JsonObject.builder()
            .put("base_url", baseUrl)
            .put("client_secret_file", secretFile.toString())
            .build();
    return write(dir, runId, task, connect, plan);
  }

  private static JsonObject.Builder task(String id, String adapter, List<String> permissions) {
    return JsonObject.builder()
        .put("schema_version", 1)
        .put("task_id", id)
        .put("task_version", "2026-12-04")
        .put("policy_id", "fleet-policy")
        .put("policy_version", "v1")
        .put("adapter", adapter)
        .put("permissions", texts(permissions.toArray(String[]::new)))
        .put("approval_required", new JsonArray(List.of()))
        .put(
            "budgets",
            JsonObject.builder()
                .put("max_proposals", 20)
                .put("max_steps", 20)
                .put("max_wall_time_ms", 3_600_000)
                .put("max_cost", 0)
                .build());
  }

  private static Path write(
      Path dir, String runId, JsonObject task, JsonObject connect, List<JsonValue> plan)
      throws IOException {
    Path file = Files.createDirectories(dir.resolve("tasks")).resolve(runId + ".json");
    Files.writeString(
        file,
        Canonical.string(
            JsonObject.builder()
                .put("format", "ratchet-task/1")
                .put("task", task)
                .put("connect", connect)
                .put("plan", new JsonArray(plan))
                .build()));
    return file;
  }

  private static JsonObject step(String id, String kind, JsonObject arguments) {
    return JsonObject.builder().put("id", id).put("kind", kind).put("arguments", arguments).build();
  }

  private static JsonArray texts(String... values) {
    List<JsonValue> out = new ArrayList<>();
    for (String v : values) {
      out.add(new JsonString(v));
    }
    return new JsonArray(out);
  }
}
