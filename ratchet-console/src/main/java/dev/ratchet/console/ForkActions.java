package dev.ratchet.console;

import dev.ratchet.error.RatchetException;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.RunForks;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.seam.CrashSeam;
import java.util.Map;

/**
 * The console's fork (D37, ADR 0130): its form's input, what the preview says will happen, and the
 * POST that applies the browser-signed fork through {@link RunForks#apply}, the code {@code ratchet
 * fork} applies with. A fork is no inbox item: it creates the new run in one commit and schedules
 * it.
 */
final class ForkActions {
  private ForkActions() {}

  /** The form's fields, checked: a bad one is answered 400 naming it. */
  record Input(String newRunId, Long fromStep, String reason) {
    static Input of(Map<String, String> query) {
      String id = query.get("new_run_id");
      if (id == null || id.isBlank()) {
        throw new BadRequest("new_run_id: the new run's id is required");
      }
      id = id.strip();
      try {
        TaskRegistry.requireRunId(id);
      } catch (RatchetException e) {
        throw new BadRequest("new_run_id: must be 1-64 letters, digits, '.', '_' or '-'");
      }
      String step = query.get("from_step");
      Long from = null;
      if (step != null && !step.isBlank()) {
        try {
          from = Long.parseLong(step.strip());
        } catch (NumberFormatException e) {
          from = -1L;
        }
        if (from < 0) {
          throw new BadRequest("from_step: must be a whole number >= 0 (or empty: the last state)");
        }
      }
      String why = query.get("reason");
      return new Input(
          id, from, why == null || why.isBlank() ? Actions.DEFAULT_CANCEL_REASON : why.strip());
    }
  }

  /** What the fork will do, said beside the payload the browser signs. */
  static String whatHappens(ForkDecision d) {
    return "Creates run "
        + d.newRunId()
        + " (task "
        + d.newTaskId()
        + ", digest "
        + d.newTaskDigest()
        + ") from run "
        + d.runId()
        + " (generation "
        + d.sourceGeneration()
        + ", task digest "
        + d.sourceTaskDigest()
        + ") at step "
        + d.fromStep()
        + " (its checkpoint of generation "
        + d.fromGeneration()
        + "). The environment was observed now (instance "
        + d.environmentInstanceId()
        + ", revision "
        + d.environmentRevision()
        + "): if it changes or the source moves before you sign, the fork is refused. A write"
        + " of the new run with the same action id and intent as a receipted write of the source"
        + " is replayed from that receipt, never sent again. The source run is not changed; a"
        + " worker drives the new run.";
  }

  /**
   * What the fork will do when its new run already exists from an earlier application of the same
   * fork that stopped before scheduling it (issue 42): it is scheduled, nothing else.
   */
  static String repairs(ForkDecision d) {
    return "Run "
        + d.newRunId()
        + " already exists: an earlier fork of run "
        + d.runId()
        + " created it and stopped before scheduling it for workers. Applying this same fork"
        + " (same step and task) only schedules it; anything else about it is refused.";
  }

  /** The new run's page after a fork: where it came from. */
  static String notice(String source) {
    return "<p class=\"notice\" id=\"forked\">Created by a signed fork of run <a href=\"/runs/"
        + Html.esc(source)
        + "\">"
        + Html.esc(source)
        + "</a>; a worker drives it.</p>";
  }

  /**
   * The fork's POST: the browser's signature must be by the key the preview was built for and
   * verify under the operators' trust root, and the source must not have moved; then {@link
   * RunForks#apply} creates and schedules the new run. Refused anywhere, nothing is created.
   */
  static ConsoleServer.Reply apply(
      ConsoleLauncher.Request config, Previews.Prepared prepared, String keyId, String signature) {
    SignedDecision signed = Actions.signed(prepared, keyId, signature);
    try (Session s = openToFork(config)) {
      signed.verify(s.operators());
      Actions.requireUnmoved(s, prepared);
      RunForks.Forked f = RunForks.apply(s, prepared.fork(), signed, Actions.WORKER_ID);
      return ConsoleServer.Reply.redirect("/runs/" + f.runId() + "?forked=" + prepared.runId());
    }
  }

  /**
   * The one console connection that commits a run: a fork makes the new run's first commit and
   * schedules it, as {@code ratchet fork} does, under the same role (the owner on PostgreSQL today;
   * ADR 0130 leaves a narrower one open).
   */
  private static Session openToFork(ConsoleLauncher.Request config) {
    return Session.open(
        config.services(),
        config.settings().as(PgRole.forCommand("fork")),
        StoreFactory.Mode.MUST_EXIST,
        CrashSeam.NONE);
  }
}
