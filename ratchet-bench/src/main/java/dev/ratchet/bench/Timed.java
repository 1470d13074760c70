package dev.ratchet.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code n} threads, each repeating its own operation until a common deadline; the answer is how
 * many operations completed and the wall time from the common start to the last finish (an
 * operation in flight at the deadline completes and counts, so the rate is not inflated).
 */
record Timed(long ops, double seconds) {
  /** One worker's operation; worker {@code i} of {@code n}. */
  interface Op {
    void run(int worker) throws Exception;
  }

  double rate() {
    return ops / seconds;
  }

  static Timed parallel(int n, long millis, Op op) {
    return parallel(n, millis, op, null);
  }

  /**
   * As {@link #parallel(int, long, Op)}, and adds each operation's duration in nanoseconds to
   * {@code latencies} (one timer pair per operation, kept per worker and merged at the end so the
   * workers do not contend on a shared list).
   */
  static Timed parallel(int n, long millis, Op op, List<Long> latencies) {
    List<List<Long>> perWorker = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      perWorker.add(new ArrayList<>());
    }
    Op measured =
        latencies == null
            ? op
            : w -> {
              long t0 = Stopwatch.nanos();
              op.run(w);
              perWorker.get(w).add(Stopwatch.nanos() - t0);
            };
    Timed t = run(n, millis, measured);
    if (latencies != null) {
      perWorker.forEach(latencies::addAll);
    }
    return t;
  }

  private static Timed run(int n, long millis, Op op) {
    long[] counts = new long[n];
    Thread[] threads = new Thread[n];
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long[] deadline = new long[1];
    for (int i = 0; i < n; i++) {
      int worker = i;
      threads[i] =
          new Thread(
              () -> {
                try {
                  go.await();
                  long c = 0;
                  do {
                    op.run(worker);
                    c++;
                  } while (Stopwatch.nanos() < deadline[0] && failure.get() == null);
                  counts[worker] = c;
                } catch (Throwable t) {
                  failure.compareAndSet(null, t);
                }
              },
              "bench-worker-" + i);
      threads[i].start();
    }
    Stopwatch watch = Stopwatch.start();
    deadline[0] = Stopwatch.nanos() + millis * 1_000_000L;
    go.countDown();
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while measuring", e);
      }
    }
    double seconds = watch.elapsedSeconds();
    if (failure.get() != null) {
      throw new IllegalStateException("a benchmark worker failed", failure.get());
    }
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    return new Timed(total, seconds);
  }
}
