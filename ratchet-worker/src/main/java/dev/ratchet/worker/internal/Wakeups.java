package dev.ratchet.worker.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.seam.MonotonicClock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Wakes idle worker loops (ADR 0060, 0062): each loop notes {@link #seen()} before it claims and,
 * finding nothing, {@linkplain #await waits} until the count moves or the poll interval passes.
 * When the store offers a {@link RunnableListener} (PostgreSQL's {@code ratchet_runnable}
 * notifications: submitted, delivered to, scheduled), a listener thread moves the count on every
 * wake-up; when it fails it reconnects after a backoff and the loops poll meanwhile. A store that
 * offers none (SQLite) is polled.
 */
public final class Wakeups implements AutoCloseable {
  private final Object monitor = new Object();
  private final SchedulingStore store;
  private final MonotonicClock clock;
  private final Consumer<String> log;
  private final String owner;
  private long count;
  private volatile boolean closed;
  private Thread listener;

  public Wakeups(SchedulingStore store, MonotonicClock clock, String owner, Consumer<String> log) {
    this.store = store;
    this.clock = clock;
    this.owner = owner;
    this.log = log;
  }

  /** Starts listening when the store can notify; false when the loops only poll. */
  public boolean start() {
    RunnableListener first = null;
    try {
      Optional<RunnableListener> n = store.listen();
      if (n.isEmpty()) {
        return false;
      }
      first = n.get();
    } catch (RatchetException e) {
      // The store listens, but is not reachable now: the listener keeps trying while the loops
      // poll.
      log.accept("worker " + owner + ": cannot listen yet (" + e.code() + "); polling");
    }
    RunnableListener initial = first;
    listener = new Thread(() -> listen(initial), "ratchet-listener");
    listener.setDaemon(true);
    listener.start();
    return true;
  }

  public long seen() {
    synchronized (monitor) {
      return count;
    }
  }

  /** Waits until a wake-up after {@code seen} or until {@code max} passed. */
  public void await(long seen, Duration max) throws InterruptedException {
    long until = clock.nanos() + max.toNanos();
    synchronized (monitor) {
      while (count == seen && !closed) {
        long left = until - clock.nanos();
        if (left <= 0) {
          return;
        }
        monitor.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  /** Wakes every waiting loop (a notification, or the worker stopping). */
  public void wake() {
    synchronized (monitor) {
      count++;
      monitor.notifyAll();
    }
  }

  private void listen(RunnableListener initial) {
    RunnableListener n = initial;
    Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));
    while (!closed) {
      try {
        if (n == null) {
          n = store.listen().orElseThrow();
          backoff.reset();
          wake(); // anything notified while we were deaf is claimable now
        }
        if (n.await(1_000)) {
          wake();
        }
      } catch (RatchetException e) {
        if (n != null) {
          n.close();
          n = null;
        }
        if (closed) {
          return;
        }
        Duration d = backoff.next();
        log.accept(
            "worker "
                + owner
                + ": listener lost; polling, reconnecting in "
                + d.toMillis()
                + " ms");
        try {
          Thread.sleep(d.toMillis());
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
    if (n != null) {
      n.close();
    }
  }

  @Override
  public void close() {
    closed = true;
    wake();
    if (listener != null) {
      listener.interrupt();
    }
  }
}
