package dev.ratchet.console;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.Approval;
import dev.ratchet.model.CancelRequest;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.ops.ApprovalRules;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.RunForks;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustRoot;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pages and the signing actions (D30: the browser signs). A decision is built on the server for
 * the browser's key and shown in full (a {@link Previews preview}); the page signs exactly those
 * bytes with the key the browser holds (WebCrypto Ed25519, never sent here) and posts the
 * signature. The POST is accepted only on the route the preview was shown for, for the key it was
 * built for, when the signature verifies under the role's trust root with the trusted name, and
 * when the run has not moved since; then it is delivered to the run's inbox. A fork is the
 * exception: no inbox carries it, and {@link ForkActions} applies it with {@code ratchet fork}'s
 * ops code. This process holds no private key.
 */
final class Actions {
  /** Approvals the console builds are valid this long and for this many more proposals. */
  static final Duration APPROVAL_TTL = Duration.ofHours(24);

  static final long APPROVAL_PROPOSALS = 100;

  /** The reason a cancel carries when the operator gives none (as {@code ratchet cancel}). */
  static final String DEFAULT_CANCEL_REASON = "operator request";

  /** The cookie in which the page names the browser's key id (public; set by console.js). */
  static final String SIGNER_COOKIE = "ratchet_signer";

  private final ConsoleLauncher.Request config;
  private final Reads reads;
  private final Previews previews;

  Actions(ConsoleLauncher.Request config, Reads reads) {
    this.config = config;
    this.reads = reads;
    this.previews =
        new Previews(config.services().clock(), config.services().entropy(), config.previewTtl());
  }

  /** {@code keyId}: the browser's key id (its cookie), or null. */
  ConsoleServer.Reply get(String path, Map<String, String> query, String csrf, String keyId) {
    if (path.equals("/")) {
      return ConsoleServer.Reply.html(
          "Runs", Pages.runs(reads.runs(query.get("phase")), query.get("phase")));
    }
    if (path.equals("/review")) {
      return ConsoleServer.Reply.html("Review queue", Pages.review(reads.reviewShows(true)));
    }
    if (path.equals("/keys")) {
      return ConsoleServer.Reply.html("Your signing key", SigningPages.keys());
    }
    String[] p = path.split("/");
    if (p.length == 3 && p[1].equals("runs")) {
      Reads.Inspected i = reads.inspect(p[2]);
      String notice =
          query.containsKey("delivered")
              ? "<p class=\"notice\" id=\"delivered\">Signed and delivered (nonce "
                  + Html.esc(query.get("delivered"))
                  + "): "
                  + Html.esc(i.extras().judged().next())
                  + ".</p>"
              : query.containsKey("forked") ? ForkActions.notice(query.get("forked")) : "";
      return ConsoleServer.Reply.html("Run " + p[2], notice + Pages.run(i.view(), i.extras()));
    }
    if (p.length == 4 && p[1].equals("runs")) {
      switch (p[3]) {
        case "approve":
        case "refresh-approval":
          return previewApproval(p[2], p[3], keyId, csrf);
        case "decide":
          return previewDecision(p[2], query.get("decision"), keyId, csrf);
        case "cancel":
          return previewCancel(p[2], query.get("reason"), keyId, csrf);
        case "pause":
        case "unpause":
          return previewPause(p[2], p[3], query.get("reason"), keyId, csrf);
        case "migrate":
          return previewMigrate(p[2], query.get("task"), query.get("reason"), keyId, csrf);
        case "fork":
          return previewFork(p[2], query, keyId, csrf);
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
    Previews.Prepared prepared = previews.take(String.valueOf(form.get("preview")));
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
    return prepared.fork() != null
        ? ForkActions.apply(config, prepared, form.get("key_id"), form.get("signature"))
        : deliver(prepared, form.get("key_id"), form.get("signature"));
  }

  private ConsoleServer.Reply previewApproval(
      String runId, String action, String keyId, String csrf) {
    boolean refresh = action.equals("refresh-approval");
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      long now = previews.now();
      PendingIntent pending =
          ApprovalRules.requireApprovable(runId, c.state(), c.task().task(), refresh, now);
      ApprovalRules.requireDigest(c.adapter(), pending);
      Signer who = Signer.of(s.approvers(), keyId, Role.APPROVER);
      Approval a =
          ApprovalRules.approval(
              who.name(),
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
          new Previews.Prepared(runId, action, c.ref().generation(), a, who.keyId(), now),
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
              + ". "
              + who.note());
    }
  }

  /**
   * A reviewer decision bound to the open case and the environment as the run stored it at the
   * freeze (D30: no adapter tooling runs here); a worker refuses it if the environment has changed.
   */
  private ConsoleServer.Reply previewDecision(
      String runId, String decision, String keyId, String csrf) {
    if (!ReviewDecision.REPLAN.equals(decision) && !ReviewDecision.ABORT.equals(decision)) {
      throw RatchetException.contract("decision: '" + decision + "' is not one of replan, abort");
    }
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      requireFrozen(c.state(), runId);
      Signer who = Signer.of(s.reviewers(), keyId, Role.REVIEWER);
      dev.ratchet.adapter.Observation stored = c.state().review().observation();
      ReviewDecision d =
          ReviewDecision.onCase(
              who.name(),
              c.state(),
              c.task().task(),
              decision,
              stored,
              Decisions.nonce("decision", config.services().entropy()));
      return show(
          "Decide " + decision + " on run " + runId,
          "reviewer decision",
          new Previews.Prepared(
              runId, "decide", c.ref().generation(), d, who.keyId(), previews.now()),
          csrf,
          null,
          "Bound to the open case and the environment as the run stored it at the freeze"
              + " (revision "
              + stored.revision()
              + "); a worker refuses it if the environment has changed since. "
              + who.note());
    }
  }

  /**
   * An operator's cancel (ADR 0051), as {@code ratchet cancel} signs it: only of a running run (a
   * frozen one is ended by a reviewer's abort), bound to its task, run and policy.
   */
  private ConsoleServer.Reply previewCancel(
      String runId, String reason, String keyId, String csrf) {
    String why = reason == null || reason.isBlank() ? DEFAULT_CANCEL_REASON : reason.strip();
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      if (c.state().phase() != Phase.PAUSED) { // D37: a paused run is cancelled directly
        requireRunning(c.state(), runId);
      }
      Signer who = Signer.of(s.operators(), keyId, Role.OPERATOR);
      CancelRequest r =
          CancelRequest.of(
              who.name(),
              c.state(),
              c.task().task(),
              why,
              Decisions.nonce("cancel", config.services().entropy()));
      PendingIntent pending = c.state().pending();
      return show(
          "Cancel run " + runId,
          "cancel",
          new Previews.Prepared(
              runId, "cancel", c.ref().generation(), r, who.keyId(), previews.now()),
          csrf,
          null,
          (pending == null
                  ? "Nothing is pending: at its next recovery the run ends cancelled."
                  : "A write is pending ("
                      + pending.action().kind()
                      + " "
                      + pending.action().actionId()
                      + "): at its next recovery the run freezes in needs_review"
                      + " (cancel_requested) and a reviewer decides; the write never runs on"
                      + " its own.")
              + " "
              + who.note());
    }
  }

  /**
   * An operator's pause or unpause (D37, ADR 0130), as {@code ratchet pause|unpause} signs it: a
   * pause only of a running run, an unpause only of a paused one, bound to its task, run and
   * policy.
   */
  private ConsoleServer.Reply previewPause(
      String runId, String action, String reason, String keyId, String csrf) {
    PauseDecision.Kind kind =
        action.equals("pause") ? PauseDecision.Kind.PAUSE : PauseDecision.Kind.UNPAUSE;
    String why = reason == null || reason.isBlank() ? DEFAULT_CANCEL_REASON : reason.strip();
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      requirePhaseFor(kind, c.state(), runId);
      Signer who = Signer.of(s.operators(), keyId, Role.OPERATOR);
      PauseDecision d =
          PauseDecision.of(
              kind,
              who.name(),
              c.state(),
              c.task().task(),
              why,
              Decisions.nonce(action, config.services().entropy()));
      return show(
          (kind == PauseDecision.Kind.PAUSE ? "Pause run " : "Unpause run ") + runId,
          action,
          new Previews.Prepared(
              runId, action, c.ref().generation(), d, who.keyId(), previews.now()),
          csrf,
          null,
          (kind == PauseDecision.Kind.PAUSE
                  ? "The run stops at its next step boundary (a write in flight completes first)"
                      + " and holds no lease and no worker until a signed unpause."
                  : "The next worker that claims the run consumes the unpause and drives it on.")
              + " "
              + who.note());
    }
  }

  /**
   * An operator's migration to a new task version (D37, ADR 0130), as {@code ratchet migrate} signs
   * it: the new task file (a path on the console's machine) loaded under the whole-task rules,
   * core's migration rule applied, and the difference shown beside the payload before anything is
   * signed.
   */
  private ConsoleServer.Reply previewMigrate(
      String runId, String taskPath, String reason, String keyId, String csrf) {
    if (taskPath == null || taskPath.isBlank()) {
      throw RatchetException.contract("task: the path of the new task file is required");
    }
    TaskFile to =
        TaskFile.load(java.nio.file.Path.of(taskPath.strip()), config.services().adapters());
    String why = reason == null || reason.isBlank() ? "new task version" : reason.strip();
    try (Session s = ConsoleServer.open(config)) {
      Session.Checked c = s.check(runId);
      TaskDiff diff = migrationAllowed(c, to.task(), runId);
      Signer who = Signer.of(s.operators(), keyId, Role.OPERATOR);
      MigrateDecision d =
          MigrateDecision.of(
              who.name(),
              c.state(),
              c.task().task(),
              to.task(),
              to.toJson(),
              why,
              Decisions.nonce("migrate", config.services().entropy()));
      return show(
          "Migrate run " + runId,
          "migrate",
          new Previews.Prepared(
              runId, "migrate", c.ref().generation(), d, who.keyId(), previews.now()),
          csrf,
          null,
          "From task "
              + c.task().task().taskVersion()
              + " (digest "
              + d.fromTaskDigest()
              + ") to "
              + to.task().taskVersion()
              + " (digest "
              + d.toTaskDigest()
              + "). Changes: "
              + (diff.lines().isEmpty()
                  ? "none to kinds, targets, permissions, approvals or budgets"
                  : String.join("; ", diff.lines()))
              + ". The next worker that holds the run checks it again and applies it; the run keeps"
              + " its phase. "
              + who.note());
    }
  }

  /**
   * An operator's fork (D37, ADR 0130), prepared by the ops code {@code ratchet fork} uses: the
   * source verified and forkable, the step resolved, the environment observed now. The preview
   * shows what will happen beside the payload; the POST applies it (a new run, never an inbox).
   */
  private ConsoleServer.Reply previewFork(
      String runId, Map<String, String> query, String keyId, String csrf) {
    ForkActions.Input in = ForkActions.Input.of(query);
    try (Session s = ConsoleServer.open(config)) {
      // A taken id is refused unless it is an earlier fork of this run never scheduled (issue 42).
      RunForks.requireNewOrUnscheduled(s, runId, in.newRunId(), "new_run_id");
      Signer who = Signer.of(s.operators(), keyId, Role.OPERATOR);
      RunForks.Prepared f =
          RunForks.prepare(
              s, runId, in.fromStep(), in.newRunId(), null, who.name(), in.reason(), WORKER_ID);
      return show(
          "Fork run " + runId,
          "fork",
          new Previews.Prepared(
              runId,
              "fork",
              f.decision().sourceGeneration(),
              f.decision(),
              who.keyId(),
              previews.now(),
              f),
          csrf,
          null,
          (s.store().runs(in.newRunId()).isEmpty()
                  ? ForkActions.whatHappens(f.decision())
                  : ForkActions.repairs(f.decision()))
              + " "
              + who.note());
    }
  }

  /** The worker id the console's fork is made under (traced in the new run's first commit). */
  static final String WORKER_ID = "console";

  /** Core's migration rule for the run as checked, with the adapter's declared permissions. */
  private static TaskDiff migrationAllowed(Session.Checked c, TaskSpec to, String runId) {
    TaskSpec from = c.task().task();
    if (!from.fingerprint().equals(c.state().taskFingerprint())) {
      throw RatchetException.contract(
          "run "
              + runId
              + " was migrated before: migrate it again with 'ratchet migrate --from-task'");
    }
    java.util.Map<String, String> permissions = new java.util.HashMap<>();
    c.adapter().actionSpecs().forEach(spec -> permissions.put(spec.kind(), spec.permission()));
    return MigrateDecision.check(c.state(), from, to, permissions::get);
  }

  /** A pause needs a running run, an unpause a paused one. */
  private static void requirePhaseFor(PauseDecision.Kind kind, RunState s, String runId) {
    Phase want = kind == PauseDecision.Kind.PAUSE ? Phase.RUNNING : Phase.PAUSED;
    if (s.phase() != want) {
      throw RatchetException.contract(
          "run "
              + runId
              + " is "
              + s.phase().wireName()
              + ": only a "
              + want.wireName()
              + " run can be "
              + kind.wireName()
              + "d");
    }
  }

  /**
   * The POST of every action: the browser's signature must be by the key the preview was built for
   * and verify under the role's trust root with its trusted name (a refusal names its reason); the
   * run must not have moved since and the action's rules still hold; then exactly the shown payload
   * and that signature are delivered, through the operator's delivery login.
   */
  private ConsoleServer.Reply deliver(Previews.Prepared prepared, String keyId, String signature) {
    SignedDecision signed = signed(prepared, keyId, signature);
    try (Session s = ConsoleServer.openToDeliver(config)) {
      signed.verify(root(s, prepared.role()));
      Session.Checked c = requireUnmoved(s, prepared);
      switch (prepared.kind()) {
        case APPROVAL:
          ApprovalRules.requireDigest(
              c.adapter(),
              ApprovalRules.requireApprovable(
                  prepared.runId(),
                  c.state(),
                  c.task().task(),
                  prepared.action().equals("refresh-approval"),
                  previews.now()));
          break;
        case REVIEW_DECISION:
          requireFrozen(c.state(), prepared.runId());
          break;
        case PAUSE:
          requirePhaseFor(PauseDecision.Kind.PAUSE, c.state(), prepared.runId());
          break;
        case UNPAUSE:
          requirePhaseFor(PauseDecision.Kind.UNPAUSE, c.state(), prepared.runId());
          break;
        case MIGRATE:
          migrationAllowed(c, ((MigrateDecision) prepared.decision()).toTask(), prepared.runId());
          break;
        case CANCEL:
          if (c.state().phase() != Phase.PAUSED) {
            requireRunning(c.state(), prepared.runId());
          }
          break;
        default:
          requireRunning(c.state(), prepared.runId());
      }
      Decisions.deliver(s.store(), signed);
      return ConsoleServer.Reply.redirect(
          "/runs/" + prepared.runId() + "?delivered=" + prepared.nonce());
    }
  }

  /**
   * The shown decision with the browser's signature, refused unless it is by the key the preview
   * was built for and well formed (verified against the trust root by the caller).
   */
  static SignedDecision signed(Previews.Prepared prepared, String keyId, String signature) {
    if (!prepared.keyId().equals(keyId)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_SIGNER,
          "signed with key '"
              + keyId
              + "' but the decision was shown for key '"
              + prepared.keyId()
              + "': nothing was delivered");
    }
    try {
      return SignedDecision.of(prepared.decision(), keyId, signature);
    } catch (RatchetException e) {
      throw new DecisionRefused(
          DecisionRefused.Reason.MALFORMED, e.getMessage() + ": nothing was delivered");
    }
  }

  private static TrustRoot root(Session s, Role role) {
    switch (role) {
      case APPROVER:
        return s.approvers();
      case REVIEWER:
        return s.reviewers();
      default:
        return s.operators();
    }
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

  /** The run as verified now, refused when it moved since the decision was shown. */
  static Session.Checked requireUnmoved(Session s, Previews.Prepared prepared) {
    Session.Checked c = s.check(prepared.runId());
    if (c.ref().generation() != prepared.generation()) {
      throw RatchetException.contract(
          "run "
              + prepared.runId()
              + " moved since the preview (generation "
              + prepared.generation()
              + " then, "
              + c.ref().generation()
              + " now): nothing was delivered; open the action again");
    }
    return c;
  }

  private static void requireFrozen(RunState s, String runId) {
    if (s.phase() != Phase.NEEDS_REVIEW || s.review() == null) {
      throw RatchetException.contract(
          "run " + runId + " is " + s.phase().wireName() + ", not frozen in needs_review");
    }
  }

  /**
   * The browser's key as a trust root knows it: its trusted name, or, for a key not enrolled, a
   * name that says so (what it signs is refused as {@code untrusted_signer}, and the page says so
   * before signing).
   */
  private record Signer(String keyId, String name, boolean trusted, Role role) {
    static Signer of(TrustRoot root, String keyId, Role role) {
      if (!Ed25519.isKeyId(keyId)) {
        throw RatchetException.contract(
            "this browser holds no signing key: open 'Keys' to create one or import your PKCS#8"
                + " key, then enroll its public key with 'ratchet keys trust --role "
                + role.noun()
                + " FILE.pub'");
      }
      return root.label(keyId)
          .map(n -> new Signer(keyId, n, true, role))
          .orElseGet(() -> new Signer(keyId, "unenrolled-" + keyId, false, role));
    }

    String note() {
      return trusted
          ? "Signed in this browser with key " + keyId + " ('" + name + "')."
          : "Key "
              + keyId
              + " is not in this store's "
              + role.noun()
              + " trust root: what it signs is refused (untrusted_signer); enroll it with"
              + " 'ratchet keys trust --role "
              + role.noun()
              + " FILE.pub' first.";
    }
  }

  /** The preview page: the decision in full and the form the page signs it with. */
  private ConsoleServer.Reply show(
      String title,
      String what,
      Previews.Prepared p,
      String csrf,
      JsonValue arguments,
      String note) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("preview", previews.keep(p));
    fields.put(Guard.CSRF_FIELD, csrf);
    fields.put("key_id", p.keyId());
    return ConsoleServer.Reply.html(
        title,
        SigningPages.preview(
            what, "/runs/" + p.runId() + "/" + p.action(), p.payload(), arguments, fields, note));
  }
}
