package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The repair of a fork interrupted between the new run's first commit and its scheduling (issues 39
 * and 42, ADR 0130): the run exists with its lineage but no worker ever claims it, and {@code
 * ratchet fork} with the same new run id would be refused forever. Applying the same fork again
 * schedules that run instead of refusing, and only when every check holds (fail closed): the run
 * verifies (signed checkpoint, audited trace chain), its first trace event is {@code forked} and
 * names the same source task, run and task digest, the same starting point (generation and step),
 * the same new task digest and the new run id; the home recorded its task with that digest; it has
 * not ended; and it has no scheduling row. Anything else is refused as a taken run id was before,
 * naming the field and the rule. Scheduling before the commit is never done instead: a worker could
 * claim a row whose run does not exist yet and start it fresh, without its lineage.
 */
final class ForkRepair {
  private ForkRepair() {}

  /**
   * {@code newRunId} is free, or the run with that id passes every check that does not need the
   * signed fork (its lineage names {@code sourceRunId}, no scheduling row, not ended): a fork
   * prepared for it is then a repair. Refused otherwise, before anything is signed.
   */
  static void requireNewOrUnscheduled(
      Session session, String sourceRunId, String newRunId, String field) {
    TaskRegistry.requireRunId(newRunId);
    if (!session.store().runs(newRunId).isEmpty()) {
      lineage(session, sourceRunId, newRunId, field);
    }
  }

  /**
   * Schedules the existing run {@code d} names for workers when it is the run an earlier
   * application of the same fork committed and never scheduled; refused otherwise.
   */
  static RunForks.Forked schedule(Session session, ForkDecision d, String field) {
    Lineage l = lineage(session, d.runId(), d.newRunId(), field);
    JsonObject f = l.forked();
    same(field, d.newRunId(), "source_task_id", d.taskId(), text(f, "source_task_id"));
    same(
        field,
        d.newRunId(),
        "source_task_digest",
        d.sourceTaskDigest(),
        text(f, "source_task_digest"));
    same(
        field,
        d.newRunId(),
        "from_generation",
        "" + d.fromGeneration(),
        text(f, "from_generation"));
    same(field, d.newRunId(), "from_step", "" + d.fromStep(), text(f, "from_step"));
    same(field, d.newRunId(), "task_digest", d.newTaskDigest(), text(f, "task_digest"));
    same(field, d.newRunId(), "new_task_id", d.newTaskId(), l.ref().taskId());
    Path copy = session.home().tasks().resolve(l.task().sha256() + ".json").toAbsolutePath();
    // Two repairs racing: the store refuses the second schedule ("already scheduled").
    l.scheduling().schedule(l.ref().taskId(), d.newRunId(), SubmittedTask.PLAN_DRIVER, "" + copy);
    String receipts = text(f, "inherited_receipts");
    long inherited = receipts.isEmpty() ? 0 : Long.parseLong(receipts);
    return new RunForks.Forked(
        d.newRunId(), l.ref().taskId(), d.fromGeneration(), d.fromStep(), inherited, true);
  }

  /** The existing run's verified lineage, refused unless it can be repaired from {@code source}. */
  private static Lineage lineage(Session session, String source, String runId, String field) {
    String taken = field + ": run '" + runId + "' already exists";
    SchedulingStore sched =
        session
            .schedulingIfAny()
            .orElseThrow(
                () -> RatchetException.contract(taken + " (this store schedules nothing)"));
    CheckpointStore.RunRef ref = session.find(runId);
    boolean scheduled =
        sched.scheduled().stream()
            .anyMatch(r -> r.taskId().equals(ref.taskId()) && r.runId().equals(runId));
    if (scheduled) {
      throw RatchetException.contract(
          taken
              + " and has a scheduling row: a fork makes a new run; choose another id ('ratchet"
              + " status "
              + runId
              + "' says who drives it)");
    }
    TaskFile task =
        TaskRegistry.forRun(session.home(), runId, session.services().adapters())
            .orElseThrow(
                () ->
                    RatchetException.contract(
                        taken + " and this home recorded no task for it: not a fork made here"));
    Session.Checked c = session.check(runId); // signed checkpoint verified, or refused
    long events =
        ChainAudit.verify(session.store(), ref.taskId(), runId, c.state(), RecordSet.TRACE);
    List<JsonObject> first =
        events == 0
            ? List.of()
            : Records.bodies(
                Records.upTo(session.store(), ref.taskId(), runId, RecordSet.TRACE, 1));
    if (first.isEmpty() || !"forked".equals(text(first.get(0), "outcome"))) {
      throw RatchetException.contract(
          taken + " and its first trace event is not 'forked': it is no fork; choose another id");
    }
    JsonObject forked = first.get(0).get("detail").orElse(null) instanceof JsonObject o ? o : null;
    if (forked == null) {
      throw RatchetException.contract(taken + " and its 'forked' event has no lineage");
    }
    same(field, runId, "source_run_id", source, text(forked, "source_run_id"));
    if (!task.task().fingerprint().equals(text(forked, "task_digest"))) {
      throw RatchetException.contract(
          taken
              + ": task_digest: the task this home recorded for it is not the one it was forked"
              + " with");
    }
    if (c.state().phase().terminal()) {
      throw RatchetException.contract(
          taken
              + " (forked from "
              + source
              + ") and is "
              + c.state().phase().wireName()
              + ": an ended run is not scheduled; nothing to repair");
    }
    return new Lineage(ref, task, forked, sched);
  }

  private static void same(String field, String runId, String name, String want, String has) {
    if (!Objects.equals(want, has)) {
      throw RatchetException.contract(
          field
              + ": run '"
              + runId
              + "' already exists and was forked with "
              + name
              + " "
              + has
              + ", not "
              + want
              + ": only the same fork (source, step, task) schedules an earlier fork's run;"
              + " choose another id");
    }
  }

  /** A field of the lineage as text; "" when absent (never equal to a real value). */
  private static String text(JsonObject o, String key) {
    return Views.text(o, key);
  }

  private record Lineage(
      CheckpointStore.RunRef ref, TaskFile task, JsonObject forked, SchedulingStore scheduling) {}
}
