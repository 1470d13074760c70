package dev.ratchet.chaos;

import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Crash campaign (issue #8 item 1). Trials are cheap: two long-lived {@link CrashWorker} JVMs drive
 * many runs at once on shared SQLite stores, and a kill takes out a whole worker with every run it
 * had in flight. A trial is one run whose {@link CrashPlan} (from its seed) picks the task (a
 * ledger run on a reference service of its own, or a workspace run in a directory of its own), the
 * store layout and the fault: a SIGKILL inside a chosen crash window (the worker parks the run
 * there and the supervisor kills the JVM), a SIGKILL at an arbitrary instant, two workers racing
 * for the run on short leases, or a lease that lapses under a stall. A killed worker is replaced at
 * once and its runs are sent to the replacement, which recovers them. When a run ends it is judged
 * ({@link RunVerdict}, D18) against the external system's own ledger.
 *
 * <p>The canary ({@code --canary}) aims every kill at the adapter's window after its external
 * commit and wraps the adapters: ledger runs in the testkit's {@code ResendingAdapter} (every order
 * sent again under a fresh key: the effect count finds duplicates), workspace runs in its {@code
 * KeyChangingAdapter}. The runtime never re-executes under a key it cannot find, so the key change
 * alone produces no duplicate: recovery sees the environment moved without a receipt for the run's
 * key and freezes the run for drift, and the receipt issued under the changed key, in no run's
 * evidence, fails the receipt check.
 */
final class CrashCampaign {
  /** Runs per batch: one pair of stores and one pair of worker JVMs (replacements aside). */
  static final int BATCH = 250;

  private CrashCampaign() {}

  /**
   * Runs {@code seeds} in batches under {@code work}, handing each judged trial to {@code done}.
   */
  static void run(List<Long> seeds, boolean canary, Path work, Consumer<TrialResult> done)
      throws Exception {
    for (int from = 0; from < seeds.size(); from += BATCH) {
      List<Long> batch = seeds.subList(from, Math.min(seeds.size(), from + BATCH));
      Path dir = Files.createDirectories(work.resolve("batch-" + from));
      StoreOptions create = StoreOptions.defaults(Clock.systemUTC()).withOpenMode(OpenMode.CREATE);
      try (BatchStores stores = BatchStores.open(dir, create)) {
        new CrashBatch(dir, stores, canary, done).run(new ArrayList<>(batch));
      } finally {
        Campaign.deleteTree(dir);
      }
    }
  }
}
