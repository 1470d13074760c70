package dev.ratchet.console;

import dev.ratchet.adapter.Observation;
import dev.ratchet.cli.internal.ApprovalRules;
import dev.ratchet.cli.internal.ConsoleLauncher;
import dev.ratchet.cli.internal.Decisions;
import dev.ratchet.cli.internal.Session;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.Approval;
import dev.ratchet.model.CancelRequest;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.InboxItem;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pages and the signing actions. A decision is built and shown in full first (a preview kept
 * here under a single-use id); the POST signs exactly that payload with the operator's own key, but
 * only if the run has not moved since (same generation, same rules, digest recomputed from the
 * shown arguments, D26), then delivers it to the run's inbox. A worker consumes it.
 */
final class Actions {
  /** Approvals the console signs are valid this long and for this many more proposals. */
  static final Duration APPROVAL_TTL = Duration.ofHours(24);

  static final long APPROVAL_PROPOSALS = 100;

  /** The reason a cancel carries when the operator gives none (as {@code ratchet cancel}). */
  static final String DEFAULT_CANCEL_REASON = "operator request";

  private final ConsoleLauncher.Request config;
  private final Reads reads;

  /** Shown decisions kept at most; showing one more forgets the oldest. */
  static final int MAX_PREVIEWS = 64;

  /** Shown, not yet signed, oldest first (insertion order); guarded by itself. */
  private final LinkedHashMap<String, Prepared> previews = new LinkedHashMap<>();

  Actions(ConsoleLauncher.Request config, Reads reads) {
    this.config = config;
    this.reads = reads;
  }

  /**
   * A decision shown and not yet signed, bound to the route it was shown for ({@code action}: the
   * last segment of {@code /runs/RUN/ACTION}) and to the time it was shown.
   */
  private record Prepared(
      String runId,
      String action,
      long generation,
      InboxItem.Kind kind,
      JsonObject payload,
      String nonce,
      long shownAtMs) {}

  ConsoleServer.Reply get(String path, Map<String, String> query, String csrf) {
    if (path.equals("/")) {
      return ConsoleServer.Reply.html(
          "Runs", Pages.runs(reads.runs(query.get("phase")), query.get("phase")));
    }
    if (path.equals("/review")) {
      return ConsoleServer.Reply.html("Review queue", Pages.review(reads.reviewShows(true)));
    }
    String[] p = path.split("/");
    if (p.length == 3 && p[1].equals("runs")) {
      Reads.Inspected i = reads.inspect(p[2]);
      String notice =
          query.containsKey("delivered")
              ? "<p class=\"notice\" id=\"delivered\">Signed and delivered (nonce "
                  + Html.esc(query.get("delivered"))
                  + "). A worker applies it when it next claims the run.</p>"
              : "";
      return ConsoleServer.Reply.html("Run " + p[2], notice + Pages.run(i.view(), i.extras()));
    }
    if (p.length == 4 && p[1].equals("runs")) {
      switch (p[3]) {
        case "approve":
          return previewApproval(p[2], false, csrf);
        case "refresh-approval":
          return previewApproval(p[2], true, csrf);
        case "decide":
          return previewDecision(p[2], query.get("decision"), csrf);
        case "cancel":
          return previewCancel(p[2], query.get("reason"), csrf);
        default:
          break;
      }
    }
    return ConsoleServer.Reply.notFound();
  }

  ConsoleServer.Reply post(String path, Map<String, String> form) {
    String[] p = path.split("/");
    if (p.length != 4 || !p[1].equals("runs")) {
      return ConsoleServer.Reply.notFound();
    }
    Prepared prepared = take(String.valueOf(form.get("preview")));
    if (prepared == null) {
      throw RatchetException.contract(
          "preview: unknown, already used or expired; nothing was signed: open the action again");
    }
    if (!prepared.runId().equals(p[2]) || !prepared.action().equals(p[3])) {
      // Used up all the same: a preview is signed, if ever, only where it was shown.
      throw RatchetException.contract(
          "preview: shown for /runs/"
              + prepared.runId()
              + "/"
              + prepared.action()
              + ", posted to "
              + path
              + ": nothing was signed or delivered");
    }
    switch (p[3]) {
      case "approve":
      case "refresh-approval":
        return signApproval(prepared, p[3].equals("refresh-approval"));
      case "decide":
        return signDecision(prepared);
      case "cancel":
        return signCancel(prepared);
      default:
        return ConsoleServer.Reply.notFound();
    }
  }

  private ConsoleServer.Reply previewApproval(String runId, boolean refresh, String csrf) {
    SigningKey key = requireKey(config.approver(), "--approver-key", "approve");
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      long now = config.services().clock().millis();
      PendingIntent pending =
          ApprovalRules.requireApprovable(runId, c.state(), c.task().task(), refresh, now);
      ApprovalRules.requireDigest(c.adapter(), pending);
      requireTrusted(s.approvers(), key, "approver");
      Approval a =
          ApprovalRules.approval(
              key.label(),
              c.state(),
              c.task().task(),
              APPROVAL_PROPOSALS,
              APPROVAL_TTL,
              now,
              config.services().entropy());
      return show(
          (refresh ? "Refresh approval of " : "Approve ")
              + pending.action().actionId()
              + " in run "
              + runId,
          "approval",
          refresh ? "refresh-approval" : "approve",
          new Prepared(
              runId,
              refresh ? "refresh-approval" : "approve",
              c.ref().generation(),
              InboxItem.Kind.APPROVAL,
              a.toJson(),
              a.nonce(),
              now),
          csrf,
          pending.action().arguments(),
          "It approves "
              + pending.action().kind()
              + " "
              + pending.action().actionId()
              + " with the arguments shown (the intent digest recomputed from exactly them), valid"
              + " until "
              + java.time.Instant.ofEpochMilli(a.expiresAtMs())
              + " or proposal "
              + a.expiresAtProposal()
              + "; signed with key "
              + key.keyId()
              + " ('"
              + key.label()
              + "').");
    }
  }

  private ConsoleServer.Reply signApproval(Prepared prepared, boolean refresh) {
    SigningKey key = requireKey(config.approver(), "--approver-key", "approve");
    return sign(
        prepared,
        key,
        s -> s.approvers(),
        "approver",
        c ->
            ApprovalRules.requireDigest(
                c.adapter(),
                ApprovalRules.requireApprovable(
                    prepared.runId(),
                    c.state(),
                    c.task().task(),
                    refresh,
                    config.services().clock().millis())));
  }

  private ConsoleServer.Reply previewDecision(String runId, String decision, String csrf) {
    SigningKey key = requireKey(config.reviewer(), "--reviewer-key", "decide a review");
    if (!ReviewDecision.REPLAN.equals(decision) && !ReviewDecision.ABORT.equals(decision)) {
      throw RatchetException.contract("decision: '" + decision + "' is not one of replan, abort");
    }
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      requireFrozen(c.state(), runId);
      requireTrusted(s.reviewers(), key, "reviewer");
      Observation live = c.adapter().observe();
      ReviewDecision d =
          ReviewDecision.onCase(
              key.label(),
              c.state(),
              c.task().task(),
              decision,
              live,
              Decisions.nonce("decision", config.services().entropy()));
      return show(
          "Decide " + decision + " on run " + runId,
          "reviewer decision",
          "decide",
          new Prepared(
              runId,
              "decide",
              c.ref().generation(),
              InboxItem.Kind.REVIEW_DECISION,
              d.toJson(),
              d.nonce(),
              config.services().clock().millis()),
          csrf,
          "Key "
              + key.keyId()
              + " ('"
              + key.label()
              + "'). Bound to the open case and the environment as observed now (revision "
              + live.revision()
              + ").");
    }
  }

  private ConsoleServer.Reply signDecision(Prepared prepared) {
    SigningKey key = requireKey(config.reviewer(), "--reviewer-key", "decide a review");
    return sign(
        prepared,
        key,
        s -> s.reviewers(),
        "reviewer",
        c -> {
          requireFrozen(c.state(), prepared.runId());
          ReviewDecision shown = ReviewDecision.fromJson(prepared.payload(), "preview");
          Observation live = c.adapter().observe();
          if (!live.instanceId().equals(shown.environmentInstanceId())
              || live.revision() != shown.environmentRevision()) {
            throw RatchetException.contract(
                "the environment changed since the preview (revision "
                    + shown.environmentRevision()
                    + " then, "
                    + live.revision()
                    + " now): open the decision again");
          }
        });
  }

  /**
   * An operator's cancel (ADR 0051), as {@code ratchet cancel} signs it: only of a running run (a
   * frozen one is ended by a reviewer's abort), bound to its task, run and policy.
   */
  private ConsoleServer.Reply previewCancel(String runId, String reason, String csrf) {
    SigningKey key = requireKey(config.operator(), "--operator-key", "cancel");
    String why = reason == null || reason.isBlank() ? DEFAULT_CANCEL_REASON : reason.strip();
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      requireRunning(c.state(), runId);
      requireTrusted(s.operators(), key, "operator");
      CancelRequest r =
          new CancelRequest(
              key.label(),
              c.state().taskId(),
              runId,
              c.task().task().policyId(),
              c.task().task().policyVersion(),
              why,
              Decisions.nonce("cancel", config.services().entropy()));
      PendingIntent pending = c.state().pending();
      return show(
          "Cancel run " + runId,
          "cancel",
          "cancel",
          new Prepared(
              runId,
              "cancel",
              c.ref().generation(),
              InboxItem.Kind.CANCEL,
              r.toJson(),
              r.nonce(),
              config.services().clock().millis()),
          csrf,
          (pending == null
                  ? "Nothing is pending: at its next recovery the run ends cancelled."
                  : "A write is pending ("
                      + pending.action().kind()
                      + " "
                      + pending.action().actionId()
                      + "): at its next recovery the run freezes in needs_review"
                      + " (cancel_requested) and a reviewer decides; the write never runs on"
                      + " its own.")
              + " Signed with key "
              + key.keyId()
              + " ('"
              + key.label()
              + "').");
    }
  }

  private ConsoleServer.Reply signCancel(Prepared prepared) {
    SigningKey key = requireKey(config.operator(), "--operator-key", "cancel");
    return sign(
        prepared,
        key,
        s -> s.operators(),
        "operator",
        c -> requireRunning(c.state(), prepared.runId()));
  }

  private static void requireRunning(RunState s, String runId) {
    if (s.phase() != Phase.RUNNING) {
      throw RatchetException.contract(
          "run "
              + runId
              + " is "
              + s.phase().wireName()
              + (s.phase() == Phase.NEEDS_REVIEW
                  ? ": a reviewer ends it with a decision to abort"
                  : ": there is nothing to cancel"));
    }
  }

  /**
   * The POST of every action: through the operator's delivery login, the run must not have moved
   * since the preview, {@code rules} must still hold and the key must be one a worker trusts; then
   * exactly the shown payload is signed and delivered.
   */
  private ConsoleServer.Reply sign(
      Prepared prepared,
      SigningKey key,
      Function<Session, TrustRoot> root,
      String role,
      Consumer<Session.Checked> rules) {
    try (Session s = ConsoleServer.openToDeliver(config)) {
      Session.Checked c = requireUnmoved(s, prepared);
      rules.accept(c);
      requireTrusted(root.apply(s), key, role);
      SignedEnvelope env = SignedEnvelope.sign(prepared.payload(), key);
      Decisions.deliver(s.store(), c.state(), prepared.kind(), prepared.nonce(), env);
      return ConsoleServer.Reply.redirect(
          "/runs/" + prepared.runId() + "?delivered=" + prepared.nonce());
    }
  }

  /** The run as verified now, refused when it moved since the decision was shown. */
  private static Session.Checked requireUnmoved(Session s, Prepared prepared) {
    Session.Checked c = s.check(prepared.runId());
    if (c.ref().generation() != prepared.generation()) {
      throw RatchetException.contract(
          "run "
              + prepared.runId()
              + " moved since the preview (generation "
              + prepared.generation()
              + " then, "
              + c.ref().generation()
              + " now): nothing was signed; open the action again");
    }
    return c;
  }

  private static void requireFrozen(RunState s, String runId) {
    if (s.phase() != Phase.NEEDS_REVIEW || s.review() == null) {
      throw RatchetException.contract(
          "run " + runId + " is " + s.phase().wireName() + ", not frozen in needs_review");
    }
  }

  private static void requireTrusted(TrustRoot root, SigningKey key, String role) {
    if (!root.trusts(key.keyId())) {
      throw RatchetException.contract(
          role
              + " key "
              + key.keyId()
              + " ('"
              + key.label()
              + "') is not in this store's "
              + role
              + " trust root: a worker would refuse what it signs (install it with 'ratchet keys"
              + " trust')");
    }
  }

  private static SigningKey requireKey(SigningKey key, String option, String what) {
    if (key == null) {
      throw RatchetException.contract(
          "this console holds no key to "
              + what
              + " with: start it with "
              + option
              + " FILE (your own key)");
    }
    return key;
  }

  /**
   * The preview page of every action: the decision in full and the form that signs exactly it, kept
   * under a single-use id until the POST to {@code /runs/RUN/ACTION}.
   */
  private ConsoleServer.Reply show(
      String title, String what, String action, Prepared p, String csrf, String note) {
    return show(title, what, action, p, csrf, null, note);
  }

  private ConsoleServer.Reply show(
      String title,
      String what,
      String action,
      Prepared p,
      String csrf,
      JsonValue arguments,
      String note) {
    return ConsoleServer.Reply.html(
        title,
        Pages.preview(
            what,
            "/runs/" + p.runId() + "/" + action,
            p.payload(),
            arguments,
            fields(keep(p), csrf),
            note));
  }

  private String keep(Prepared p) {
    String id = config.services().entropy().hex128();
    synchronized (previews) {
      forgetExpired();
      previews.put(id, p);
      while (previews.size() > MAX_PREVIEWS) {
        previews.remove(previews.keySet().iterator().next());
      }
    }
    return id;
  }

  /** The preview under {@code id}, removed (single use); null when unknown or expired. */
  private Prepared take(String id) {
    synchronized (previews) {
      forgetExpired();
      return previews.remove(id);
    }
  }

  private void forgetExpired() {
    long oldest = config.services().clock().millis() - config.previewTtl().toMillis();
    previews.values().removeIf(p -> p.shownAtMs() <= oldest);
  }

  private static Map<String, String> fields(String previewId, String csrf) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("preview", previewId);
    f.put(Guard.CSRF_FIELD, csrf);
    return f;
  }
}
