package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * How a host (the command line, a worker) reaches one kind of environment: found through {@link
 * java.util.ServiceLoader} (a {@code META-INF/services/dev.ratchet.adapter.AdapterProvider} line
 * naming a public class with a public no-argument constructor), it reads a task's {@code connect}
 * object (where the environment is: a directory, a base URL) and opens the adapter on it. The
 * connect object is local configuration, not part of the signed task; {@code environment} is the
 * signed task's {@code environment} object (what the task expects to find).
 */
public interface AdapterProvider {
  /** The adapter namespace a task names in {@code task.adapter}. */
  String namespace();

  /**
   * The action kinds the adapter offers for a task with {@code environment}, taken from the adapter
   * itself, so a plan is checked before any environment is prepared or store opened.
   */
  List<ActionSpec> actionSpecs(JsonObject environment, Context context);

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
  default void checkTask(TaskOutline task) {}

  /**
   * Opens the adapter on the environment {@code connect} names. With {@code prepare} (starting a
   * run) the provider may create the environment from {@code environment} when it does not exist
   * yet; otherwise a missing environment is a {@code CONTRACT} error.
   */
  EnvironmentAdapter open(
      JsonObject environment, JsonObject connect, boolean prepare, Context context);

  /**
   * What the host hands every provider: its clock and randomness (the one seam, never ambient), and
   * the crash seam reached at {@link dev.ratchet.seam.CrashPoint#ADAPTER_AFTER_EXTERNAL_COMMIT}
   * ({@link CrashSeam#NONE} outside crash harnesses).
   */
  record Context(InstantSource clock, Entropy entropy, CrashSeam seam) {
    public Context {
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(entropy, "entropy");
      Objects.requireNonNull(seam, "seam");
    }

    /** The same host with another crash seam. */
    public Context withSeam(CrashSeam other) {
      return new Context(clock, entropy, other);
    }
  }
}
