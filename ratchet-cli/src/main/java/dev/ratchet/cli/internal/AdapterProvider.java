package dev.ratchet.cli.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * How the command line reaches one kind of environment: it reads the task file's {@code connect}
 * object (where the environment is: a directory, a base URL) and opens the adapter on it. The
 * connect object is local configuration, not part of the signed task.
 */
public interface AdapterProvider {
  /** The adapter namespace a task names in {@code task.adapter}. */
  String namespace();

  /**
   * The action kinds the adapter offers for {@code task}, taken from the adapter itself, so a plan
   * is checked before any environment is prepared or store opened.
   */
  List<ActionSpec> actionSpecs(TaskSpec task);

  /**
   * Validates {@code connect} and resolves relative paths against {@code baseDir} (the task file's
   * directory), so a recorded task file means the same wherever the command runs. Throws {@code
   * CONTRACT} naming the field under {@code path}.
   */
  JsonObject resolveConnect(JsonObject connect, Path baseDir, String path);

  /**
   * The adapter's own rules on a whole task, checked on load before any environment, store or file
   * is created: targets by the adapter's path or name rules, the environment and verifier within
   * the targets, each plan step against what the adapter allows (a command on its allowlist).
   * Throws {@code CONTRACT} naming the field and the rule. The default checks nothing more.
   */
  default void checkTask(TaskSpec task, List<PlanStep> plan) {}

  /**
   * Opens the adapter on the environment {@code connect} names. With {@code prepare} (starting a
   * run) the provider may create the environment from {@code task.environment()} when it does not
   * exist yet; otherwise a missing environment is a {@code CONTRACT} error. {@code seam} is reached
   * at {@link dev.ratchet.seam.CrashPoint#ADAPTER_AFTER_EXTERNAL_COMMIT} (the demo's workers;
   * {@link dev.ratchet.seam.CrashSeam#NONE} otherwise).
   */
  EnvironmentAdapter open(
      TaskSpec task, JsonObject connect, boolean prepare, dev.ratchet.seam.CrashSeam seam);
}
