package dev.ratchet.testkit;

import dev.ratchet.Ratchet;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.Optional;

/** What the crash matrix's fork rows (D37) need: a signed fork from step 0 and the canary. */
final class ForkRows {
  private ForkRows() {}

  /** The operator's signed fork of {@code source} into {@code fork}, from the oldest step 0. */
  static SignedDecision signedFork(
      RuntimeFixture f, TaskSpec task, InMemoryWorkspace ws, String source, String fork) {
    RunState s = f.ratchet("verifier").verify(task, source, ws);
    long current = f.store.load(task.taskId(), source).orElseThrow().generation();
    for (long g = 1; g <= current; g++) {
      Optional<CheckpointEnvelope> env = f.store.retained(task.taskId(), source, g);
      if (env.isPresent() && Checkpoint.open(env.get(), f.keyRing).state().cursor() == 0) {
        return Ratchet.sign(
            ForkDecision.of(
                f.operatorKey.label(),
                s,
                task,
                current,
                g,
                0,
                task,
                fork,
                ws.observe(),
                "crash matrix",
                "fork-" + fork),
            f.operatorKey);
      }
    }
    throw new IllegalStateException("the store retains no checkpoint of " + source + " at step 0");
  }

  /** The canary (D18): a store that never finds a forked run's inherited receipts. */
  static final class DroppingInherited extends ForwardingCheckpointStore {
    DroppingInherited(CheckpointStore delegate) {
      super(delegate);
    }

    @Override
    public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
      return set == RecordSet.INHERITED ? Optional.empty() : super.find(taskId, runId, set, key);
    }
  }
}
