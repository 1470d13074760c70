package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RunScope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every part of the {@link SchedulingStore} contract works with: a fresh store per test on a
 * {@link ManualClock}, its checkpoint side (commits and inbox deliveries), and small helpers.
 * Implementations subclass {@link SchedulingStoreContract}.
 */
public abstract class SchedulingFixture {
  protected static final Instant START = Instant.parse("2026-07-18T09:00:00Z");
  protected static final Duration TTL = Duration.ofSeconds(30);
  protected static final String TASK = "task-1";
  protected static final String DRIVER = "plan";

  protected ManualClock clock;
  protected SchedulingStore store;

  /**
   * A fresh, empty store judging time on {@code clock}: its scheduling, and (through {@link
   * #checkpoints}) the checkpoint side that commits and delivers; closed after each test.
   */
  protected abstract SchedulingStore newStore(ManualClock clock);

  /** The checkpoint side of {@link #store}: the store itself unless a subclass splits roles. */
  protected CheckpointStore checkpoints() {
    return (CheckpointStore) store;
  }

  @BeforeEach
  void openStore() {
    clock = new ManualClock(START);
    store = newStore(clock);
  }

  @AfterEach
  void closeStore() throws Exception {
    if (store instanceof AutoCloseable c) {
      c.close();
    }
  }

  /** The run's first commit under {@code lease}: it exists, so inbox items can be delivered. */
  protected void start(String runId, Lease lease) {
    CommitResult r =
        checkpoints()
            .commit(
                new CommitRequest(
                    new RunScope(TASK, runId, "env-1"),
                    0,
                    lease,
                    ContractRecords.checkpoint(runId, 1),
                    List.of()));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.COMMITTED);
  }

  protected void deliver(String runId, String nonce) {
    checkpoints().deliver(TASK, runId, new InboxItem(nonce, InboxItem.Kind.APPROVAL, "{}"));
  }

  protected Claim claim(String owner) {
    return store
        .claim(owner, TTL)
        .orElseThrow(() -> new AssertionError(owner + " claimed nothing"));
  }
}
