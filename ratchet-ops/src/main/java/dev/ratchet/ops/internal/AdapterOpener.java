package dev.ratchet.ops.internal;

import dev.ratchet.adapter.DeclaredAdapter;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.AdapterRegistry;
import dev.ratchet.ops.ServiceAdapter;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.CrashSeam;

/** Opens the adapter a task file names, or only its declarations (operator surfaces, D30). */
public final class AdapterOpener {
  private AdapterOpener() {}

  /** Opens the adapter, checks the task file against its action specs, marks service failures. */
  public static EnvironmentAdapter open(
      AdapterRegistry adapters, TaskFile tf, boolean prepare, CrashSeam seam) {
    EnvironmentAdapter adapter;
    try {
      adapter =
          adapters
              .get("task.adapter", tf.task().adapter())
              .open(
                  tf.task().environment(),
                  tf.connect(),
                  prepare,
                  adapters.context().withSeam(seam));
    } catch (RatchetException e) {
      throw ServiceAdapter.opening(tf.task().adapter(), e);
    }
    tf.checkAgainst(adapter.actionSpecs());
    return ServiceAdapter.wrap(adapter);
  }

  /**
   * The provider's declared action specs as an adapter that refuses every environment call: what
   * verifying a stored run needs, with no adapter tooling run against the environment.
   */
  public static EnvironmentAdapter declared(AdapterRegistry adapters, TaskFile tf) {
    return new DeclaredAdapter(
        tf.task().adapter(),
        adapters
            .get("task.adapter", tf.task().adapter())
            .actionSpecs(tf.task().environment(), adapters.context()));
  }
}
