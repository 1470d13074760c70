package dev.ratchet.cli;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.RunViews;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Views;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ratchet review list|show|decide}: frozen runs and signed reviewer decisions (§8). */
@Command(
    name = "review",
    mixinStandardHelpOptions = true,
    description = "Runs frozen in needs_review: list them, show a case's evidence, decide it.",
    subcommands = {
      ReviewCommand.ListCases.class,
      ReviewCommand.Show.class,
      ReviewCommand.Decide.class
    })
final class ReviewCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required: list, show or decide");
  }

  /** {@code review list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List open review cases.")
  static final class ListCases extends CliCommand {
    @Mixin CommonOptions common;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    ListCases(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      try (Session session = common.openExisting(services, null)) {
        List<JsonValue> cases = new ArrayList<>();
        Table t = new Table("RUN", "TASK", "CASE", "REASON", "ACTION");
        int exit = 0;
        for (CheckpointStore.RunRef ref : session.store().runs()) {
          RunState s;
          try {
            s = session.check(ref.runId()).state();
          } catch (RatchetException e) {
            err().println("refused " + ref.runId() + ": " + e.getMessage());
            exit = exit == 0 ? e.code().exitCode() : exit;
            continue;
          }
          if (s.phase() != Phase.NEEDS_REVIEW) {
            continue;
          }
          ReviewCase c = s.review();
          String action = c.pending() == null ? "-" : c.pending().action().actionId();
          t.row(ref.runId(), ref.taskId(), c.caseId(), c.reason(), action);
          cases.add(RunViews.reviewRow(ref.runId(), ref.taskId(), c));
        }
        if (json) {
          out()
              .println(
                  Canonical.string(JsonObject.builder().put("cases", Views.array(cases)).build()));
        } else if (t.isEmpty()) {
          out().println("no run is frozen in needs_review");
        } else {
          t.print(out());
        }
        return exit;
      }
    }
  }

  /** {@code review show RUN_ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show the frozen evidence of a run's open review case.")
  static final class Show extends CliCommand {
    @Mixin RunOptions target;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    Show(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      try (Session session = target.open(services)) {
        Session.Checked c = session.check(target.runId);
        ReviewCase rc = requireOpenCase(c.state(), target.runId);
        long observedAt = RunViews.frozenAtMs(session, c);
        long now = services.clock().millis();
        JsonObject view = RunViews.reviewShow(target.runId, rc, observedAt, now);
        if (json) {
          out().println(Canonical.string(view));
        } else {
          print(out(), rc, observedAt, now);
        }
        return 0;
      }
    }

    private void print(PrintWriter out, ReviewCase c, long observedAt, long now) {
      out.println(
          "run " + target.runId + " is frozen: case " + c.caseId() + " (" + c.reason() + ")");
      if (c.pending() != null) {
        out.println(
            "  pending write      "
                + c.pending().action().kind()
                + " "
                + c.pending().action().actionId()
                + " "
                + c.pending().action().arguments());
        out.println("  idempotency key    " + c.pending().key());
        out.println("  intent digest      " + c.pending().intentDigest());
      }
      if (c.observedReceipt() != null) {
        out.println("  adapter receipt    " + c.observedReceipt().receiptId());
        out.println("    for intent       " + c.observedReceipt().intentDigest());
        out.println("    result           " + c.observedReceipt().result());
        out.println("    fingerprint      " + c.observedReceiptFingerprint());
      }
      out.println(
          "  environment        "
              + c.observation().instanceId()
              + " revision "
              + c.observation().revision()
              + " as stored at the freeze"
              + (observedAt < 0
                  ? ""
                  : " ("
                      + java.time.Instant.ofEpochMilli(observedAt)
                      + ", "
                      + java.time.Duration.ofMillis(Math.max(0, now - observedAt)).toSeconds()
                      + " s ago)")
              + "; not observed live: a worker refuses a decision if it has changed since");
      out.println("  replan             " + dev.ratchet.outcome.ReviewChoices.replan(c));
      out.println("  abort              " + dev.ratchet.outcome.ReviewChoices.abort(c));
      out.println(
          "decide with: ratchet review decide "
              + target.runId
              + " --decision replan|abort --reviewer NAME");
    }
  }

  /** {@code review decide RUN_ID --decision replan|abort --reviewer NAME}. */
  @Command(
      name = "decide",
      mixinStandardHelpOptions = true,
      description =
          "Sign a reviewer decision bound to the open case (action, key, both digests, receipt"
              + " fingerprint) and the environment stored at the freeze, with a single-use nonce,"
              + " and deliver it"
              + " to the run's inbox. replan quarantines the key and continues with a new one;"
              + " abort ends the run failed with all evidence kept.")
  static final class Decide extends CliCommand {
    @Mixin RunOptions target;

    @Option(
        names = "--decision",
        required = true,
        paramLabel = "replan|abort",
        description = "replan or abort.")
    String decision;

    @Option(
        names = "--key",
        paramLabel = "FILE",
        description =
            "The reviewer's own Ed25519 private key (PKCS#8 PEM, mode 0600); default:"
                + " <home>/identities/reviewer/NAME.key for --reviewer NAME.")
    Path key;

    @Option(
        names = "--reviewer",
        paramLabel = "NAME",
        description = "The reviewer's name (a label; default with --key: the key file's name).")
    String reviewer;

    Decide(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      if (!ReviewDecision.REPLAN.equals(decision) && !ReviewDecision.ABORT.equals(decision)) {
        throw RatchetException.contract(
            "--decision: '" + decision + "' is not one of replan, abort");
      }
      SigningKey signer =
          KeyConfig.signer(
              key, reviewer, target.common.settings(target.task).resolvedHome(), Role.REVIEWER);
      try (Session session = target.open(services)) {
        Session.Checked c = session.check(target.runId);
        ReviewCase rc = requireOpenCase(c.state(), target.runId);
        // Bound to the environment the run stored at the freeze (D30: no adapter tooling runs
        // here); the worker compares it with its own observation and refuses a stale decision.
        ReviewDecision d =
            ReviewDecision.onCase(
                signer.label(),
                c.state(),
                c.task().task(),
                decision,
                rc.observation(),
                Decisions.nonce("decision", services.entropy()));
        SignedEnvelope env = SignedEnvelope.sign(d.toJson(), signer);
        Decisions.deliver(
            session.store(), c.state(), InboxItem.Kind.REVIEW_DECISION, d.nonce(), env);
        if (!session.reviewers().trusts(signer.keyId())) {
          err()
              .println(
                  "warning: reviewer key "
                      + signer.keyId()
                      + " ('"
                      + signer.label()
                      + "') is not in "
                      + session.settings().reviewersDir()
                      + "; a worker that does not trust it will refuse this decision");
        }
        out()
            .println(
                "decision "
                    + decision
                    + " on case "
                    + rc.caseId()
                    + " of run "
                    + target.runId
                    + " signed by "
                    + signer.label()
                    + " (key "
                    + signer.keyId()
                    + ")"
                    + " and delivered (nonce "
                    + d.nonce()
                    + ", bound to the stored environment revision "
                    + rc.observation().revision()
                    + "); "
                    + session.whoActsNext(c.ref().taskId(), target.runId, "applies it"));
        return 0;
      }
    }
  }

  static ReviewCase requireOpenCase(RunState s, String runId) {
    if (s.phase() != Phase.NEEDS_REVIEW || s.review() == null) {
      throw RatchetException.contract(
          "run " + runId + " is " + s.phase().wireName() + ", not frozen in needs_review");
    }
    return s.review();
  }
}
