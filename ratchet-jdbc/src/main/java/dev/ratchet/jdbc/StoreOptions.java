package dev.ratchet.jdbc;

import dev.ratchet.seam.CrashSeam;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * How a {@link JdbcStore} behaves. Start from {@link #defaults(InstantSource)} and change fields
 * with the {@code withX} copies.
 *
 * @param clock the clock that judges lease expiry (SPEC D8: SQLite uses the injected clock)
 * @param openMode whether opening may create the database ({@link OpenMode#MUST_EXIST} default)
 * @param synchronous SQLite's durability level; {@code FULL} survives power loss, {@code NORMAL}
 *     only a process crash
 * @param busyTimeout how long a writer waits for another process's write lock before the store
 *     reports {@code STORE_UNAVAILABLE}
 * @param retainOlder how many checkpoints older than the current one each run keeps for inspection;
 *     older ones are pruned in the commit that makes them too old
 * @param groupCommit whether one writer thread commits the queued commits of many runs in one
 *     transaction (higher throughput under concurrency, one thread hand-off of latency); on a
 *     single-database PostgreSQL store of schema 17 a batch of two or more is one call of {@code
 *     ratchet_commit_batch}, each run in its own subtransaction (ADR 0141)
 * @param maxBatch the most commits one group-commit transaction carries
 * @param crashSeam test seam reached between the content and the mark transaction of a split store
 *     ({@link dev.ratchet.seam.CrashPoint#STORE_BETWEEN_CONTENT_AND_MARK}); {@link CrashSeam#NONE}
 *     in production
 */
public record StoreOptions(
    InstantSource clock,
    OpenMode openMode,
    Synchronous synchronous,
    Duration busyTimeout,
    int retainOlder,
    boolean groupCommit,
    int maxBatch,
    CrashSeam crashSeam) {

  /** SQLite's {@code PRAGMA synchronous} levels that keep a committed transaction committed. */
  public enum Synchronous {
    FULL,
    NORMAL
  }

  public static final int MAX_RETAIN = 1000;
  public static final int MAX_BATCH = 10_000;

  public StoreOptions {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(openMode, "openMode");
    Objects.requireNonNull(synchronous, "synchronous");
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    Objects.requireNonNull(crashSeam, "crashSeam");
    if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("busyTimeout must be between 0 and 2^31-1 ms");
    }
    if (retainOlder < 0 || retainOlder > MAX_RETAIN) {
      throw new IllegalArgumentException("retainOlder must be between 0 and " + MAX_RETAIN);
    }
    if (maxBatch < 1 || maxBatch > MAX_BATCH) {
      throw new IllegalArgumentException("maxBatch must be between 1 and " + MAX_BATCH);
    }
  }

  /**
   * MUST_EXIST, synchronous FULL, 5 s busy timeout, 3 older checkpoints kept, no group commit
   * (batches of up to 64 when enabled), no crash seam.
   */
  public static StoreOptions defaults(InstantSource clock) {
    return new StoreOptions(
        clock,
        OpenMode.MUST_EXIST,
        Synchronous.FULL,
        Duration.ofSeconds(5),
        3,
        false,
        64,
        CrashSeam.NONE);
  }

  public StoreOptions withClock(InstantSource c) {
    return new StoreOptions(
        c, openMode, synchronous, busyTimeout, retainOlder, groupCommit, maxBatch, crashSeam);
  }

  public StoreOptions withOpenMode(OpenMode m) {
    return new StoreOptions(
        clock, m, synchronous, busyTimeout, retainOlder, groupCommit, maxBatch, crashSeam);
  }

  public StoreOptions withSynchronous(Synchronous s) {
    return new StoreOptions(
        clock, openMode, s, busyTimeout, retainOlder, groupCommit, maxBatch, crashSeam);
  }

  public StoreOptions withBusyTimeout(Duration d) {
    return new StoreOptions(
        clock, openMode, synchronous, d, retainOlder, groupCommit, maxBatch, crashSeam);
  }

  public StoreOptions withRetainOlder(int n) {
    return new StoreOptions(
        clock, openMode, synchronous, busyTimeout, n, groupCommit, maxBatch, crashSeam);
  }

  public StoreOptions withGroupCommit(boolean on) {
    return new StoreOptions(
        clock, openMode, synchronous, busyTimeout, retainOlder, on, maxBatch, crashSeam);
  }

  /**
   * These options with group commit on where it pays for {@code concurrentRuns} runs committing at
   * once to {@code markSide} (where a store writes its commits): more than one run, and SQLite. One
   * writer thread then fsyncs a batch once instead of each run its own commit (measured 2026-12-05
   * with real write steps: 1.3x the commits with four runs, 1.5x with eight, about even with two).
   * Off otherwise: PostgreSQL already groups the WAL flushes of concurrent commits, and a writer
   * thread there serialises them (ADR 0043); even as one batched call per batch (ADR 0141) it made
   * 0.60x the write steps of 8 runs committing on their own (measured 2026-12-06).
   */
  public StoreOptions withGroupCommitFor(Database markSide, int concurrentRuns) {
    return withGroupCommit(concurrentRuns > 1 && markSide.kind() == Database.Kind.SQLITE);
  }

  public StoreOptions withMaxBatch(int n) {
    return new StoreOptions(
        clock, openMode, synchronous, busyTimeout, retainOlder, groupCommit, n, crashSeam);
  }

  public StoreOptions withCrashSeam(CrashSeam seam) {
    return new StoreOptions(
        clock, openMode, synchronous, busyTimeout, retainOlder, groupCommit, maxBatch, seam);
  }
}
