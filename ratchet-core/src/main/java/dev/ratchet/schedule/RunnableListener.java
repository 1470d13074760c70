package dev.ratchet.schedule;

/**
 * Wake-ups for idle workers (ADR 0062): a store that can tell when a run became claimable
 * (submitted, delivered to, scheduled) offers one through {@link SchedulingStore#listen()}. Polling
 * stays the fallback; a wake-up is only a hint that a claim may succeed.
 */
public interface RunnableListener extends AutoCloseable {
  /**
   * Waits up to {@code timeoutMillis}; true when at least one wake-up arrived. A broken listener
   * throws {@code STORE_UNAVAILABLE}: the caller closes it and asks for a new one.
   */
  boolean await(long timeoutMillis);

  @Override
  void close();
}
