package dev.ratchet.bench;

import java.util.List;

/**
 * One side of figure 8: short runs of {@link #STEPS} steps handed to an idle worker process through
 * a queue, on the same PostgreSQL server. Ratchet's side submits signed tasks through the Java API
 * and a worker loop claims and drives them; DBOS's side enqueues workflows on a DBOS queue.
 */
interface QueueSide extends AutoCloseable {
  /** Steps of every run (each a durable step whose output is recorded). */
  int STEPS = 3;

  /**
   * Submits {@code n} runs at once to a worker running {@code concurrency} at a time and waits
   * until all ended; returns the wall-clock seconds from the first submission to the last end and
   * adds each run's submit-to-done latency (ns) to {@code latencies}.
   */
  double drain(int n, int concurrency, List<Long> latencies) throws Exception;

  /** The database whose server processes this side's CPU is counted in. */
  String database();

  @Override
  void close();
}
