package dev.ratchet.ops;

import dev.ratchet.seam.CrashSeam;
import java.time.InstantSource;

/**
 * Opens the checkpoint and lease store a command works on. The one production implementation is
 * {@link StoreFactories#standard()}; tests may supply another.
 */
@FunctionalInterface
public interface StoreFactory {
  /** Whether opening may create the store. Only {@code run} and {@code demo} create. */
  enum Mode {
    MUST_EXIST,
    CREATE,
    /** Never creates, never writes: SQLite opened read-only (the console's reads, D26). */
    READ_ONLY
  }

  /**
   * Opens the store whose content lives at {@code content} and whose high-water mark lives at
   * {@code mark} (the same place when {@code mark} is null). Throws {@code STORE_UNAVAILABLE} when
   * the store is absent in {@code MUST_EXIST} mode or unreachable, {@code CONTRACT} for a spec this
   * build cannot open. {@code concurrentRuns} is how many runs the caller commits for at once (1,
   * or a worker's slots): the standard factory then batches their commits on a SQLite mark side
   * (group commit, ADR 0043); a factory that cannot ignores the hint.
   */
  Stores open(
      StoreSpec content,
      StoreSpec mark,
      Mode mode,
      InstantSource clock,
      CrashSeam seam,
      int concurrentRuns);
}
