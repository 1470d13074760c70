package dev.ratchet.harness.demo;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's task: an agent appends five payment entries to {@code ledger.log} in a workspace
 * directory, runs the verifier and finishes. Appending is not idempotent, so a repeated effect
 * would show as a duplicated line: the file itself is the external ledger the demo counts in. Every
 * append needs a signed approval (irreversible writes), and each is conditional on the digest of
 * the content it expects to append to.
 */
public final class DemoScenario {
  /** The task-file format the demo writes (docs/cli.md). */
  public static final String FORMAT = "ratchet-task/1";

  public static final String TASK_ID = "ledger-demo";
  public static final String RUN_ID = "demo-run";
  public static final String LEDGER = "ledger.log";
  public static final String HEADER = "# payments ledger\n";
  public static final String FOREIGN_FILE = "note.txt";
  public static final List<String> ENTRIES =
      List.of(
          "e1: pay invoice 1001, 250.00 EUR to alice\n",
          "e2: pay invoice 1002, 99.90 EUR to bob\n",
          "e3: pay invoice 1003, 1200.00 EUR to carol\n",
          "e4: refund order 77, 15.00 EUR to dave\n",
          "e5: pay invoice 1004, 42.00 EUR to erin\n");

  private DemoScenario() {}

  public static String stepId(int i) {
    return "e" + (i + 1);
  }

  public static String finalLedger() {
    return HEADER + String.join("", ENTRIES);
  }

  /** The task file text for a workspace at {@code workspace}, on adapter {@code namespace}. */
  public static String taskFile(Path workspace, String namespace) {
    List<JsonValue> plan = new ArrayList<>();
    String content = HEADER;
    for (int i = 0; i < ENTRIES.size(); i++) {
      plan.add(
          step(
              stepId(i),
              "append_file",
              JsonObject.builder()
                  .put("path", LEDGER)
                  .put("content", ENTRIES.get(i))
                  .put("expected_sha256", Canonical.sha256Hex(content))
                  .build()));
      content += ENTRIES.get(i);
    }
    plan.add(step("verify", "run_tests", JsonObject.builder().put("target", "ledger").build()));
    plan.add(step("done", "finish", JsonObject.EMPTY));
    JsonObject task =
        JsonObject.builder()
            .put("schema_version", 1)
            .put("task_id", TASK_ID)
            .put("task_version", "2026-07-18")
            .put("policy_id", "payments-policy")
            .put("policy_version", "v1")
            .put("adapter", namespace)
            .put("permissions", texts("workspace.read", "workspace.write", "tests.run"))
            .put("action_kinds", texts("append_file", "run_tests"))
            .put("targets", texts(LEDGER, "ledger"))
            .put("approval_required", texts("append_file"))
            .put(
                "budgets",
                JsonObject.builder()
                    .put("max_proposals", 100)
                    .put("max_steps", 50)
                    .put("max_wall_time_ms", 3_600_000)
                    .put("max_cost", 0)
                    .build())
            .put("environment", files(HEADER))
            .put(
                "verifier",
                JsonObject.builder()
                    .put("expected_files", JsonObject.builder().put(LEDGER, finalLedger()).build())
                    .build())
            .build();
    return Canonical.string(
        JsonObject.builder()
            .put("format", FORMAT)
            .put("task", task)
            .put("connect", JsonObject.builder().put("directory", workspace.toString()).build())
            .put("plan", new JsonArray(plan))
            .build());
  }

  /** How many times {@code entry} appears in the ledger text (the effect count of its intent). */
  public static int count(String ledger, String entry) {
    int n = 0;
    for (int i = ledger.indexOf(entry); i >= 0; i = ledger.indexOf(entry, i + 1)) {
      n++;
    }
    return n;
  }

  private static JsonObject files(String ledger) {
    return JsonObject.builder()
        .put("files", JsonObject.builder().put(LEDGER, ledger).build())
        .build();
  }

  private static JsonObject step(String id, String kind, JsonObject args) {
    return JsonObject.builder().put("id", id).put("kind", kind).put("arguments", args).build();
  }

  private static JsonArray texts(String... items) {
    List<JsonValue> out = new ArrayList<>();
    for (String s : items) {
      out.add(new JsonString(s));
    }
    return new JsonArray(out);
  }
}
