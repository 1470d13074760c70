package dev.ratchet.worker;

import dev.ratchet.Run;
import dev.ratchet.model.TaskSpec;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What a {@link Driver} gets for one claim: the recovered run (its lease held by the worker), the
 * verified task it runs, the scheduling row's task reference (where the driver finds what it
 * follows, e.g. the task file's plan), and whether the worker is draining (SIGTERM: finish the
 * current step, then return {@link DriveResult#yielded()}).
 */
public record DriveContext(Run run, TaskSpec task, String taskRef, BooleanSupplier drainingSignal) {
  public DriveContext {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(taskRef, "taskRef");
    Objects.requireNonNull(drainingSignal, "drainingSignal");
  }

  /** A context without a task reference (a driver called in-process, not from a schedule row). */
  public DriveContext(Run run, TaskSpec task, BooleanSupplier drainingSignal) {
    this(run, task, "", drainingSignal);
  }

  /** True once the worker has been asked to stop: finish the step in flight, start no other. */
  public boolean draining() {
    return drainingSignal.getAsBoolean();
  }
}
