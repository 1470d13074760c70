package dev.ratchet.chaos;

import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import dev.ratchet.testkit.RuntimeFixture;
import java.time.InstantSource;
import java.util.Random;

/**
 * The operator of an approval-gated crash trial: signs, as alice, an approval exactly bound to the
 * run's pending write and delivers it to the run's inbox (D12), where the lease holder consumes it
 * in a commit. A crash may leave an unconsumed approval behind; another is delivered on the next
 * attempt with a fresh nonce, and the leftover is never consumed.
 */
final class ChaosApprover {
  private final SigningKey key;
  private final TaskSpec task;
  private final CheckpointStore store;
  private final InstantSource clock;
  private final Random rnd;

  ChaosApprover(
      SigningKey key, TaskSpec task, CheckpointStore store, InstantSource clock, Random rnd) {
    this.key = key;
    this.task = task;
    this.store = store;
    this.clock = clock;
    this.rnd = rnd;
  }

  /** Approves the run's pending write unless it already carries consumed approval evidence. */
  void approvePending(Run run) {
    RunState s = run.state();
    PendingIntent p = s.pending();
    if (p == null || p.approval() != null) {
      return;
    }
    Approval a =
        Approval.ofPending(
            key.label(),
            s,
            task,
            s.usage().proposals() + 100,
            clock.millis() + 3_600_000,
            "nonce-" + Long.toHexString(rnd.nextLong()) + Long.toHexString(rnd.nextLong()));
    SignedEnvelope env = RuntimeFixture.sign(a.toJson(), key);
    store.deliver(
        s.taskId(),
        s.runId(),
        new InboxItem(a.nonce(), InboxItem.Kind.APPROVAL, Canonical.string(env.toJson())));
  }
}
