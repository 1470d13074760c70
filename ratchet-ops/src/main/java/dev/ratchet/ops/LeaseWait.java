package dev.ratchet.ops;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Lease;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code resume --wait}: waits, bounded, for another worker's lease on a run to lapse (a killed
 * worker's lease lives out its TTL) instead of failing {@code FENCED} at once. It only watches: the
 * lease is taken by recovery afterwards, exactly as without waiting, so a worker that comes back
 * first still wins and this one is fenced.
 */
public final class LeaseWait {
  private static final long POLL_MS = 100;

  private LeaseWait() {}

  /** Returns once no worker holds {@code runId}'s lease; {@code FENCED} after {@code max}. */
  public static void await(
      Session session, String runId, Duration max, InstantSource clock, Consumer<String> progress) {
    Optional<Lease> held = session.heldLease(runId);
    if (held.isEmpty()) {
      return;
    }
    long start = clock.millis();
    long deadline = start + max.toMillis();
    progress.accept(
        "run "
            + runId
            + " is leased by "
            + held.get().owner()
            + " until "
            + held.get().expiresAt()
            + ": waiting up to "
            + max.toSeconds()
            + "s for the lease to lapse");
    while (held.isPresent()) {
      if (clock.millis() >= deadline) {
        throw new RatchetException(
            ErrorCode.FENCED,
            "run "
                + runId
                + " is still leased by "
                + held.get().owner()
                + " (until "
                + held.get().expiresAt()
                + ") after waiting "
                + max.toSeconds()
                + "s: its worker is alive, or wait longer with --wait=DURATION");
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RatchetException(ErrorCode.FENCED, "interrupted while waiting for the lease");
      }
      held = session.heldLease(runId);
    }
    progress.accept(
        "the lease lapsed after " + Math.max(0, clock.millis() - start) / 1000 + "s: recovering");
  }
}
