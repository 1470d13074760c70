package dev.ratchet.console;

import static dev.ratchet.console.Html.badge;
import static dev.ratchet.console.Html.esc;
import static dev.ratchet.console.Html.pre;
import static dev.ratchet.console.Html.t;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.ops.Views;
import java.time.Instant;
import java.util.List;

/** The HTML of each page, rendered from the same JSON views the API serves. */
final class Pages {
  private Pages() {}

  static String runs(List<JsonObject> rows, String phase) {
    StringBuilder b = new StringBuilder();
    b.append("<form class=\"filter\" method=\"get\" action=\"/\"><label>Phase ")
        .append("<select name=\"phase\" id=\"phase\"><option value=\"\">all</option>");
    for (String p :
        List.of("running", "paused", "needs_review", "completed", "failed", "cancelled")) {
      b.append("<option")
          .append(p.equals(phase) ? " selected" : "")
          .append(">")
          .append(p)
          .append("</option>");
    }
    b.append("</select></label><button type=\"submit\">Filter</button></form>");
    if (rows.isEmpty()) {
      return b.append("<p class=\"empty\">No runs.</p>").toString();
    }
    b.append("<table id=\"runs\"><thead><tr><th>Needs</th><th>Run</th><th>Task</th><th>Phase</th>")
        .append(
            "<th>Generation</th><th>Step</th><th>Pending</th><th>Lease</th></tr></thead><tbody>");
    for (JsonObject r : rows) {
      String needs = Views.text(r, "needs");
      b.append("<tr class=\"run\" data-run=\"")
          .append(t(r, "run_id"))
          .append("\"><td>")
          .append(needs.isEmpty() ? "" : "<span class=\"needs\">" + esc(needs) + "</span>")
          .append("</td><td><a href=\"/runs/")
          .append(t(r, "run_id"))
          .append("\">")
          .append(t(r, "run_id"))
          .append("</a></td><td>")
          .append(t(r, "task_id"))
          .append("</td><td>");
      if ("false".equals(Views.text(r, "verified"))) {
        b.append("<span class=\"badge refused\">refused</span> ").append(t(r, "problem"));
        b.append("</td><td>").append(t(r, "generation")).append("</td><td></td><td></td><td></td>");
      } else {
        b.append(
                badge(
                    Views.text(r, "status").isEmpty()
                        ? Views.text(r, "phase")
                        : Views.text(r, "status")))
            .append(" ")
            .append(t(r, "stop_reason"))
            .append("</td><td>")
            .append(t(r, "generation"))
            .append("</td><td>")
            .append(t(r, "cursor"))
            .append("/")
            .append(t(r, "plan_steps"))
            .append("</td><td>")
            .append(
                r.get("pending").orElseThrow() instanceof JsonObject p
                    ? t(p, "kind") + " " + t(p, "action_id")
                    : "")
            .append("</td><td>")
            .append(
                r.get("lease").orElseThrow() instanceof JsonObject l
                    ? t(l, "owner") + " until " + t(l, "expires_at")
                    : "none")
            .append("</td>");
      }
      b.append("</tr>");
    }
    return b.append("</tbody></table>").toString();
  }

  /** One run: state, budgets, lease, pending write, receipts, trace, inbox; actions it allows. */
  static String run(JsonObject v, RunExtras x) {
    JsonObject run = (JsonObject) v.get("run").orElseThrow();
    String id = Views.text(run, "run_id");
    // Core's Waiting rule (in the view): which approval button, if any, the page offers.
    JsonObject w = run.get("waiting").orElse(null) instanceof JsonObject o ? o : null;
    String waitingFor = w == null ? "" : Views.text(w, "for");
    boolean delivered = w != null && "true".equals(Views.text(w, "delivered"));
    StringBuilder b = new StringBuilder();
    b.append("<section id=\"state\"><h2>State</h2><dl>")
        .append(dt("Phase", badge(Views.text(run, "phase")) + " " + t(run, "stop_reason")))
        .append(waiting(run, x.judged()))
        .append(claimReason(v))
        .append(dt("Task", t(run, "task_id")))
        .append(dt("Generation", t(run, "generation")))
        .append(dt("Step", t(run, "cursor") + " of " + t(run, "plan_steps")))
        .append(dt("Checkpoint signed by key", t(v, "checkpoint_key_id")))
        .append(dt("Budgets", esc(x.budgets())))
        .append(
            dt(
                "Lease",
                run.get("lease").orElseThrow() instanceof JsonObject l
                    ? t(l, "owner")
                        + " (version "
                        + t(l, "version")
                        + ") until "
                        + t(l, "expires_at")
                    : "none (no worker holds the run)"))
        .append(dt("Environment", esc(Canonical.string(run.get("environment").orElseThrow()))))
        .append("</dl><p id=\"chain\" class=\"verified\">")
        .append(esc(x.chain()))
        .append("</p></section>");
    if (v.get("pending").orElseThrow() instanceof JsonObject p) {
      b.append("<section id=\"pending\"><h2>Pending write</h2><dl>")
          .append(
              dt(
                  "Action",
                  t(p, "action_id") + " (" + t(p, "kind") + ", risk " + t(p, "risk") + ")"))
          .append(dt("Arguments", pre(Html.pretty(p.get("arguments").orElseThrow()))))
          .append(dt("Idempotency key", "<code>" + t(p, "idempotency_key") + "</code>"))
          .append(dt("Intent digest", "<code>" + t(p, "intent_digest") + "</code>"));
      if (p.get("approval").orElseThrow() instanceof JsonObject a) {
        b.append(
            dt(
                "Approval",
                "by "
                    + t(a, "approver_id")
                    + ", nonce "
                    + t(a, "nonce")
                    + ", expires "
                    + esc(
                        Instant.ofEpochMilli(Long.parseLong(Views.text(a, "expires_at_ms")))
                            .toString())
                    + " or at proposal "
                    + t(a, "expires_at_proposal")
                    + ("true".equals(Views.text(a, "expired_by_clock"))
                        ? " <strong class=\"expired\">EXPIRED</strong>"
                        : " (valid)")));
      } else {
        b.append(
            dt(
                "Approval",
                approvalText(
                    waitingFor, delivered, Views.text(run, "phase"), t(p, "kind"), x.judged())));
      }
      b.append("</dl>");
      if (waitingFor.startsWith("approval") && !delivered) {
        b.append(
            waitingFor.equals("approval_refresh")
                ? "<a class=\"button\" id=\"refresh\" href=\"/runs/"
                    + esc(id)
                    + "/refresh-approval\">Refresh approval…</a>"
                : "<a class=\"button\" id=\"approve\" href=\"/runs/"
                    + esc(id)
                    + "/approve\">Approve…</a>");
      }
      b.append("</section>");
    }
    if (v.get("review").orElseThrow() instanceof JsonObject r) {
      b.append("<section id=\"review\"><h2>Open review case</h2><p>Case ")
          .append(t(r, "case_id"))
          .append(": <strong>")
          .append(t(r, "reason"))
          .append("</strong> — <a href=\"/review#")
          .append(esc(id))
          .append("\">see it side by side</a></p>")
          .append(choices(x.judged().replan(), x.judged().abort()))
          .append(delivered ? "" : decideButtons(id))
          .append("</section>");
    }
    if ("running".equals(Views.text(run, "phase"))) {
      b.append(cancelForm(id)).append(pauseForm(id, "pause", "Pause run…"));
    }
    if ("paused".equals(Views.text(run, "phase"))) {
      b.append(pauseForm(id, "unpause", "Unpause run…")).append(cancelForm(id));
    }
    String phase = Views.text(run, "phase");
    boolean writeWaits =
        "running".equals(phase)
            && v.get("pending").orElseThrow() instanceof JsonObject pw
            && !(pw.get("approval").orElseThrow() instanceof JsonObject);
    if ("paused".equals(phase) || "needs_review".equals(phase) || writeWaits) {
      b.append(migrateForm(id)); // D37: only a waiting, paused or frozen run is migrated
    }
    if (FORKABLE.contains(phase)) {
      b.append(forkForm(id)); // D37: a terminal, paused or frozen run, never a running one
    }
    b.append(
        section(
            "receipts",
            "Receipts",
            v,
            List.of(
                "idempotency_key",
                "receipt_id",
                "intent_digest",
                "revision_before",
                "revision_after",
                "fingerprint")));
    b.append(inbox(v));
    b.append(
        section(
            "consumed",
            "Consumed approvals and decisions",
            v,
            "consumed_nonces",
            List.of("kind", "nonce")));
    b.append(
        section(
            "quarantined", "Quarantined keys", v, "quarantined_keys", List.of("idempotency_key")));
    b.append(timeline(v));
    return b.toString();
  }

  /**
   * The status (awaiting_approval or awaiting_review) and what unblocks it, in the console's words
   * (its own buttons, not a CLI command) and true to who drives the run (issue 39).
   */
  private static String waiting(JsonObject run, Judged judged) {
    if (!(run.get("waiting").orElse(null) instanceof JsonObject w)) {
      return "";
    }
    String what = Views.text(w, "for");
    String hint;
    String item = what.equals("review") ? "a reviewer's decision" : "an approval";
    if ("true".equals(Views.text(w, "delivered"))) {
      hint = item + " is in the inbox: " + judged.next();
    } else if (!Views.text(w, "refused").isEmpty()) {
      // Issue 39: judged and refused by a worker, never "waiting to be consumed".
      hint =
          item
              + " in the inbox was refused by a worker ("
              + Views.text(w, "refused")
              + "): "
              + (what.equals("review")
                  ? "a trusted reviewer decides again with Replan… or Abort… below"
                  : "a trusted approver signs again below");
    } else if (what.equals("review")) {
      hint = "a reviewer decides: Replan… or Abort… below (each says what it does)";
    } else if (what.equals("approval_refresh")) {
      hint = "the approval expired: an approver signs a fresh one with Refresh approval… below";
    } else {
      hint = "an approver signs it with Approve… below";
    }
    return dt(
        "Status",
        "<span id=\"status\">"
            + badge(Views.text(run, "status"))
            + "</span> <span id=\"waiting-hint\">"
            + esc(hint)
            + "</span>");
  }

  /**
   * Why a worker parked the run at claim (issue 39), from its scheduling row; "" when no worker
   * gave a reason since the run's last claim.
   */
  private static String claimReason(JsonObject v) {
    if (!(v.get("scheduling").orElse(null) instanceof JsonObject s)
        || Views.text(s, "reason").isEmpty()) {
      return "";
    }
    return dt(
        "Scheduling",
        "<span id=\"claim-reason\">"
            + t(s, "reason")
            + "</span> ("
            + esc(Instant.ofEpochMilli(Long.parseLong(Views.text(s, "reason_at_ms"))).toString())
            + ")");
  }

  /** The Approval line of a pending write that holds no approval. */
  private static String approvalText(
      String waitingFor, boolean delivered, String phase, String kind, Judged judged) {
    if (waitingFor.startsWith("approval")) {
      return delivered
          ? "signed and delivered, not consumed yet: " + esc(judged.next())
          : "none yet: <strong>waiting for approval</strong>";
    }
    if (judged.approvalRequired()) {
      // Frozen with an approval-gated write: required (never "not required"), and not held.
      return "<strong>required</strong> ("
          + kind
          + " is in the task's approval_required), none held yet"
          + ("needs_review".equals(phase)
              ? ": the run is frozen for review, so a reviewer decides first"
              : "");
    }
    return "not required";
  }

  /** What each reviewer decision would do to the open case (as 'ratchet review show' says). */
  static String choices(String replan, String abort) {
    if (replan.isEmpty()) {
      return "";
    }
    return "<dl class=\"choices\">"
        + dt("Replan", "<span id=\"replan-does\">" + esc(replan) + "</span>")
        + dt("Abort", "<span id=\"abort-does\">" + esc(abort) + "</span>")
        + "</dl>";
  }

  /** An operator's cancel of a running run: opens the preview (a GET; signing is its POST). */
  private static String cancelForm(String id) {
    return "<section id=\"cancel-run\"><h2>Cancel</h2><form method=\"get\" action=\"/runs/"
        + esc(id)
        + "/cancel\"><label>Reason <input name=\"reason\" id=\"cancel-reason\" value=\""
        + esc(Actions.DEFAULT_CANCEL_REASON)
        + "\"></label> <button type=\"submit\" class=\"danger\" id=\"cancel\">Cancel run…"
        + "</button></form></section>";
  }

  /**
   * An operator's migration of a waiting, paused or frozen run to a new task version (D37): the new
   * task file's path opens the preview, which shows the difference (a GET; signing is its POST).
   */
  private static String migrateForm(String id) {
    return "<section id=\"migrate-run\"><h2>Migrate to a new task version</h2><form method=\"get\""
        + " action=\"/runs/"
        + esc(id)
        + "/migrate\"><label>New task file <input name=\"task\" id=\"migrate-task\"></label>"
        + " <label>Reason <input name=\"reason\" value=\"new task version\"></label>"
        + " <button type=\"submit\" id=\"migrate\">Migrate run…</button></form></section>";
  }

  /** The phases a run is forked from (core's {@code ForkDecision.forkable}). */
  private static final java.util.Set<String> FORKABLE =
      java.util.Set.of("completed", "failed", "cancelled", "paused", "needs_review");

  /**
   * An operator's fork into a new run (D37): the new run's id, an optional step and a reason open
   * the preview (a GET; signing is its POST).
   */
  private static String forkForm(String id) {
    return "<section id=\"fork-run\"><h2>Fork into a new run</h2><form method=\"get\""
        + " action=\"/runs/"
        + esc(id)
        + "/fork\"><label>New run id <input name=\"new_run_id\" id=\"fork-run-id\""
        + " required></label> <label>From step <input name=\"from_step\" id=\"fork-step\""
        + " placeholder=\"last committed state\"></label> <label>Reason <input name=\"reason\""
        + " value=\""
        + esc(Actions.DEFAULT_CANCEL_REASON)
        + "\"></label> <button type=\"submit\" id=\"fork\">Fork run…</button></form></section>";
  }

  /** An operator's pause or unpause (D37): opens the preview (a GET; signing is its POST). */
  private static String pauseForm(String id, String action, String label) {
    return "<section id=\""
        + action
        + "-run\"><h2>"
        + (action.equals("pause") ? "Pause" : "Unpause")
        + "</h2><form method=\"get\" action=\"/runs/"
        + esc(id)
        + "/"
        + action
        + "\"><label>Reason <input name=\"reason\" value=\""
        + esc(Actions.DEFAULT_CANCEL_REASON)
        + "\"></label> <button type=\"submit\" id=\""
        + action
        + "\">"
        + label
        + "</button></form></section>";
  }

  static String decideButtons(String id) {
    return "<div class=\"actions\"><a class=\"button\" id=\"replan\" href=\"/runs/"
        + esc(id)
        + "/decide?decision=replan\">Replan…</a> <a class=\"button danger\" id=\"abort\" href=\"/runs/"
        + esc(id)
        + "/decide?decision=abort\">Abort…</a></div>";
  }

  private static String inbox(JsonObject v) {
    StringBuilder b = new StringBuilder("<section id=\"inbox\"><h2>Inbox</h2>");
    List<JsonValue> items = ((JsonArray) v.get("inbox").orElseThrow()).items();
    if (items.isEmpty()) {
      return b.append("<p class=\"empty\">Empty.</p></section>").toString();
    }
    b.append(
        "<table><tr><th>Kind</th><th>Nonce</th><th>Signer</th><th>Key</th><th>Status</th></tr>");
    for (JsonValue i : items) {
      JsonObject o = (JsonObject) i;
      String status = Views.text(o, "status");
      b.append("<tr><td>")
          .append(t(o, "kind"))
          .append("</td><td>")
          .append(t(o, "nonce"))
          .append("</td><td>")
          .append(esc(Views.signerText(o)))
          .append("</td><td><code>")
          .append(t(o, "key_id"))
          .append("</code></td><td class=\"")
          .append(status.startsWith("refused") ? "refused" : "ok")
          .append("\">")
          .append(esc(status))
          .append("</td></tr>");
    }
    return b.append("</table></section>").toString();
  }

  private static String timeline(JsonObject v) {
    StringBuilder b =
        new StringBuilder("<section id=\"trace\"><h2>Trace</h2><ol class=\"timeline\">");
    for (JsonValue e : ((JsonArray) v.get("trace").orElseThrow()).items()) {
      JsonObject o = (JsonObject) e;
      b.append("<li><span class=\"seq\">#")
          .append(t(o, "sequence"))
          .append("</span> <span class=\"at\">")
          .append(esc(at(Views.text(o, "at_ms"))))
          .append("</span> <strong class=\"outcome\">")
          .append(t(o, "outcome"))
          .append("</strong> ")
          .append(t(o, "kind"))
          .append(" ")
          .append(t(o, "action_id"))
          .append(" <span class=\"rev\">revision ")
          .append(t(o, "environment_revision"))
          .append("</span></li>");
    }
    return b.append("</ol></section>").toString();
  }

  private static String at(String ms) {
    try {
      return Instant.ofEpochMilli(Long.parseLong(ms)).toString();
    } catch (NumberFormatException e) {
      return "";
    }
  }

  private static String section(String id, String title, JsonObject v, List<String> cols) {
    return section(id, title, v, id, cols);
  }

  private static String section(
      String id, String title, JsonObject v, String member, List<String> cols) {
    List<JsonValue> items = ((JsonArray) v.get(member).orElseThrow()).items();
    StringBuilder b =
        new StringBuilder(
            "<section id=\"" + id + "\"><h2>" + esc(title) + " (" + items.size() + ")</h2>");
    if (items.isEmpty()) {
      return b.append("</section>").toString();
    }
    b.append("<table><tr>");
    cols.forEach(c -> b.append("<th>").append(esc(c.replace('_', ' '))).append("</th>"));
    b.append("</tr>");
    for (JsonValue i : items) {
      b.append("<tr>");
      cols.forEach(c -> b.append("<td><code>").append(t((JsonObject) i, c)).append("</code></td>"));
      b.append("</tr>");
    }
    return b.append("</table></section>").toString();
  }

  /** The review queue: each frozen run's intent beside the receipt that conflicts with it. */
  static String review(List<JsonObject> cases) {
    if (cases.isEmpty()) {
      return "<p class=\"empty\">No run is frozen in needs_review.</p>";
    }
    StringBuilder b = new StringBuilder();
    for (JsonObject show : cases) {
      String id = Views.text(show, "run_id");
      JsonObject c = (JsonObject) show.get("case").orElseThrow();
      b.append("<section class=\"case\" id=\"")
          .append(esc(id))
          .append("\"><h2>Run <a href=\"/runs/")
          .append(esc(id))
          .append("\">")
          .append(esc(id))
          .append("</a>: case ")
          .append(t(c, "case_id"))
          .append(" — ")
          .append(t(c, "reason"))
          .append("</h2><div class=\"side\"><div><h3>Pending intent (what the run meant)</h3>");
      if (c.get("pending").orElseThrow() instanceof JsonObject p) {
        b.append(pre(Html.pretty(p)));
      } else {
        b.append("<p class=\"empty\">none</p>");
      }
      b.append("</div><div><h3>Receipt the adapter holds under the key</h3>");
      if (c.get("observed_receipt").orElseThrow() instanceof JsonObject r) {
        b.append(pre(Html.pretty(r)))
            .append("<p>fingerprint <code>")
            .append(t(c, "observed_receipt_fingerprint"))
            .append("</code></p>");
      } else {
        b.append("<p class=\"empty\">none</p>");
      }
      b.append("</div></div><div class=\"side\"><div><h3>Environment at the freeze</h3>")
          .append(pre(Html.pretty(show.get("stored_observation").orElseThrow())))
          .append("<p class=\"age\">")
          .append(esc(observedAt(show)))
          .append("</p>")
          .append("</div></div>")
          .append(
              show.get("decisions").orElse(null) instanceof JsonObject d
                  ? choices(Views.text(d, "replan"), Views.text(d, "abort"))
                  : "")
          .append(decideButtons(id))
          .append("</section>");
    }
    return b.toString();
  }

  /** When the stored observation was made and its age; never a live observation (D30). */
  private static String observedAt(JsonObject show) {
    String at = Views.text(show, "observed_at_ms");
    if (at.isEmpty()) {
      return "stored at the freeze; not observed live here";
    }
    long ageS = Long.parseLong(Views.text(show, "observation_age_ms")) / 1000;
    return "stored at the freeze, "
        + Instant.ofEpochMilli(Long.parseLong(at))
        + " ("
        + ageS
        + " s ago); not observed live here: a worker refuses a decision if it has changed since";
  }

  private static String dt(String k, String v) {
    return "<dt>" + esc(k) + "</dt><dd>" + v + "</dd>";
  }

  /** What the run page needs beyond the inspect view. */
  record RunExtras(String budgets, String chain, Judged judged) {}

  /**
   * @param approvalRequired the task's policy requires an approval for the pending write's kind
   * @param next who acts on a delivered decision, in words true to who drives the run
   * @param replan what a replan would do to the open case ("" when none is open)
   * @param abort what an abort would do to the open case
   */
  record Judged(boolean approvalRequired, String next, String replan, String abort) {}
}
