package dev.ratchet.worker.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.Notifications;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Wakes idle worker loops (ADR 0060, 0062): each loop notes {@link #seen()} before it claims and,
 * finding nothing, {@linkplain #await waits} until the count moves or the poll interval passes. On
 * PostgreSQL a listener thread moves the count on every {@code ratchet_runnable} notification
 * (submitted, delivered to, scheduled); when its connection fails it reconnects after a backoff and
 * the loops poll meanwhile. On SQLite nothing notifies: the loops poll.
 */
public final class Wakeups implements AutoCloseable {
  private final Object monitor = new Object();
  private final JdbcStore store;
  private final Consumer<String> log;
  private final String owner;
  private long count;
  private volatile boolean closed;
  private Thread listener;

  public Wakeups(JdbcStore store, String owner, Consumer<String> log) {
    this.store = store;
    this.owner = owner;
    this.log = log;
  }

  /** Starts listening when the store can notify; false when the loops only poll. */
  public boolean start() {
    Notifications first = null;
    try {
      Optional<Notifications> n = store.notifications();
      if (n.isEmpty()) {
        return false;
      }
      first = n.get();
    } catch (RatchetException e) {
      // PostgreSQL, but not reachable now: the listener keeps trying while the loops poll.
      log.accept("worker " + owner + ": cannot listen yet (" + e.code() + "); polling");
    }
    Notifications initial = first;
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
    long until = System.nanoTime() + max.toNanos();
    synchronized (monitor) {
      while (count == seen && !closed) {
        long left = until - System.nanoTime();
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

  private void listen(Notifications initial) {
    Notifications n = initial;
    Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));
    while (!closed) {
      try {
        if (n == null) {
          n = store.notifications().orElseThrow();
          backoff.reset();
          wake(); // anything notified while we were deaf is claimable now
        }
        if (n.await(1_000)) {
          wake();
        }
      } catch (SQLException | RatchetException e) {
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
