package dev.ratchet.ops.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.AdapterRegistry;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.SubmittedTask;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import java.util.Optional;

/** Which task file a stored run belongs to. */
public final class RunTasks {
  private RunTasks() {}

  /**
   * The task file of a run: {@code --task}, else the copy {@code run} recorded, else the signed
   * submission (ADR 0061); {@code CONTRACT} when none is found or the file is another task's.
   */
  public static TaskFile taskFor(
      Settings settings,
      AdapterRegistry adapters,
      Optional<SchedulingStore> scheduling,
      TrustRoots trust,
      CheckpointStore.RunRef ref) {
    TaskFile tf;
    if (settings.task() != null) {
      tf = TaskFile.load(settings.task(), adapters);
    } else {
      tf =
          TaskRegistry.forRun(settings.resolvedHome(), ref.runId(), adapters)
              .or(() -> submitted(settings, adapters, scheduling, trust, ref))
              .orElseThrow(
                  () ->
                      RatchetException.contract(
                          "no task file recorded or submitted for run '"
                              + ref.runId()
                              + "' in "
                              + settings.resolvedHome().dir()
                              + ": pass --task TASK.json"));
    }
    if (!tf.task().taskId().equals(ref.taskId())) {
      throw RatchetException.contract(
          "--task: the file is task '"
              + tf.task().taskId()
              + "' but run '"
              + ref.runId()
              + "' belongs to task '"
              + ref.taskId()
              + "'");
    }
    return tf;
  }

  /** A submitted run's task (ADR 0061), verified against this home's operator trust root. */
  private static Optional<TaskFile> submitted(
      Settings settings,
      AdapterRegistry adapters,
      Optional<SchedulingStore> scheduling,
      TrustRoots trust,
      CheckpointStore.RunRef ref) {
    return scheduling
        .flatMap(s -> s.submission(ref.taskId(), ref.runId()))
        .map(
            env ->
                SubmittedTask.verify(
                    env,
                    ref.taskId(),
                    ref.runId(),
                    PlanDriver.NAME,
                    trust.operators(),
                    adapters,
                    settings.resolvedHome().dir()));
  }
}
