package dev.ratchet.cli;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.ops.ChainAudit;
import dev.ratchet.ops.RunViews;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Views;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ratchet inspect RUN_ID}: everything an operator needs about one verified run. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description =
        "Show a verified run: pending intent with its key, digest and approval evidence,"
            + " receipts, consumed and delivered approvals and decisions, open and sealed review"
            + " cases, quarantined keys and the trace.")
final class InspectCommand extends CliCommand {
  @Mixin RunOptions target;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  InspectCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    try (Session session = target.open(services)) {
      java.util.Optional<JsonObject> notStarted =
          RunViews.notStarted(session, target.runId, services.clock().millis());
      if (notStarted.isPresent()) {
        // Issue 39: no checkpoint to inspect; the scheduling row says what happened to it.
        JsonObject r = notStarted.get();
        out()
            .println(
                json
                    ? Canonical.string(r)
                    : "run "
                        + target.runId
                        + " of task "
                        + Views.text(r, "task_id")
                        + ": "
                        + Views.text(r, "status")
                        + ", no checkpoint: "
                        + Views.text(r, "hint"));
        return 0;
      }
      Session.Checked c = session.check(target.runId);
      // inspect shows every record: the whole chain of every set is audited first (D20).
      ChainAudit.verify(session.store(), c.ref().taskId(), target.runId, c.state());
      JsonObject view = RunViews.inspect(session, c, target.runId, services.clock().millis());
      if (json) {
        out().println(Canonical.string(view));
      } else {
        print(out(), view);
      }
      return 0;
    }
  }

  private static void print(PrintWriter out, JsonObject v) {
    JsonObject run = obj(v, "run");
    out.println(
        "run "
            + Views.text(run, "run_id")
            + " of task "
            + Views.text(run, "task_id")
            + ": "
            + Views.text(run, "phase")
            + (Views.text(run, "stop_reason").isEmpty()
                ? ""
                : " (" + Views.text(run, "stop_reason") + ")")
            + ", generation "
            + Views.text(run, "generation")
            + ", step "
            + Views.text(run, "cursor")
            + "/"
            + Views.text(run, "plan_steps")
            + ", signed by key "
            + Views.text(v, "checkpoint_key_id"));
    if (v.get("scheduling").orElse(null) instanceof JsonObject s
        && !Views.text(s, "reason").isEmpty()) {
      out.println(
          "scheduling row "
              + Views.text(s, "state")
              + ": "
              + Views.text(s, "reason")
              + " ("
              + Views.text(s, "reason_age_ms")
              + " ms ago)");
    }
    if (v.get("cluster").isPresent()) {
      out.println("cluster " + Views.text(v, "cluster"));
    }
    JsonObject env = obj(run, "environment");
    out.println(
        "environment "
            + Views.text(env, "instance_id")
            + " revision "
            + Views.text(env, "revision")
            + " state "
            + Views.text(env, "state_fingerprint"));
    if (v.get("pending").orElseThrow() instanceof JsonObject p) {
      out.println();
      out.println(
          "pending write " + Views.text(p, "action_id") + " (" + Views.text(p, "kind") + ")");
      out.println("  arguments       " + Views.text(p, "arguments"));
      out.println("  idempotency key " + Views.text(p, "idempotency_key"));
      out.println("  intent digest   " + Views.text(p, "intent_digest"));
      if (p.get("approval").orElseThrow() instanceof JsonObject a) {
        out.println(
            "  approval        by "
                + Views.text(a, "approver_id")
                + ", nonce "
                + Views.text(a, "nonce")
                + (Views.text(a, "expired_by_clock").equals("true") ? ", EXPIRED" : ", valid"));
      } else {
        out.println("  approval        none consumed");
      }
    }
    if (v.get("review").orElseThrow() instanceof JsonObject r) {
      out.println();
      out.println(
          "open review case "
              + Views.text(r, "case_id")
              + ": "
              + Views.text(r, "reason")
              + " ('ratchet review show' for the evidence)");
    }
    section(out, "receipts", array(v, "receipts").size());
    Table receipts = new Table("KEY", "RECEIPT", "INTENT", "REVISION");
    for (JsonValue x : array(v, "receipts")) {
      JsonObject r = (JsonObject) x;
      receipts.row(
          Views.text(r, "idempotency_key"),
          Views.text(r, "receipt_id"),
          Views.text(r, "intent_digest").substring(0, 16),
          Views.text(r, "revision_before") + " -> " + Views.text(r, "revision_after"));
    }
    if (!receipts.isEmpty()) {
      receipts.print(out);
    }
    section(out, "consumed approvals and decisions", array(v, "consumed_nonces").size());
    for (JsonValue x : array(v, "consumed_nonces")) {
      JsonObject n = (JsonObject) x;
      out.println("  " + Views.text(n, "kind") + " " + Views.text(n, "nonce"));
    }
    section(out, "inbox (delivered, not consumed)", array(v, "inbox").size());
    for (JsonValue x : array(v, "inbox")) {
      JsonObject n = (JsonObject) x;
      out.println(
          "  "
              + Views.text(n, "kind")
              + " "
              + Views.text(n, "nonce")
              + " by "
              + Views.signerText(n)
              + " (key "
              + Views.text(n, "key_id")
              + "): "
              + Views.text(n, "status"));
    }
    section(out, "sealed review cases", array(v, "sealed_reviews").size());
    for (JsonValue x : array(v, "sealed_reviews")) {
      JsonObject n = (JsonObject) x;
      out.println(
          "  "
              + Views.text(n, "decision")
              + " by "
              + Views.text(n, "reviewer_id")
              + " (trace "
              + Views.text(n, "trace_sequence")
              + ")");
    }
    section(out, "quarantined keys", array(v, "quarantined_keys").size());
    for (JsonValue x : array(v, "quarantined_keys")) {
      out.println("  " + Views.text((JsonObject) x, "idempotency_key"));
    }
    section(out, "trace", array(v, "trace").size());
    Table t = new Table("SEQ", "ACTION", "KIND", "OUTCOME", "REVISION");
    for (JsonValue x : array(v, "trace")) {
      JsonObject e = (JsonObject) x;
      t.row(
          Views.text(e, "sequence"),
          Views.text(e, "action_id"),
          Views.text(e, "kind"),
          Views.text(e, "outcome"),
          Views.text(e, "environment_revision"));
    }
    t.print(out);
  }

  private static void section(PrintWriter out, String name, int n) {
    out.println();
    out.println(name + " (" + n + ")");
  }

  private static JsonObject obj(JsonObject o, String key) {
    return (JsonObject) o.get(key).orElseThrow();
  }

  private static List<JsonValue> array(JsonObject o, String key) {
    return ((dev.ratchet.json.JsonArray) o.get(key).orElseThrow()).items();
  }
}
