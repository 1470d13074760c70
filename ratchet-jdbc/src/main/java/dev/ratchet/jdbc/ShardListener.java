package dev.ratchet.jdbc;

import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.seam.MonotonicClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Wake-ups from every cluster of a {@link ShardedStore} as one listener: a thread per cluster waits
 * on that cluster's own listener and reconnects after a failure, so a cluster that is down only
 * stops its own wake-ups (the worker polls as well). Never throws from {@link #await}: a cluster's
 * failure is that cluster's.
 */
final class ShardListener implements RunnableListener {
  private static final long FIRST_RETRY_MS = 200;
  private static final long LONGEST_RETRY_MS = 5_000;

  private final Object monitor = new Object();
  private final List<RunnableListener> open = new ArrayList<>(); // guarded by monitor
  private long count; // guarded by monitor
  private long seen; // guarded by monitor
  private boolean closed; // guarded by monitor

  private final MonotonicClock clock;

  ShardListener(List<ClusterMember> members, MonotonicClock clock) {
    this.clock = clock;
    for (ClusterMember m : members) {
      Thread t = new Thread(() -> listen(m), "ratchet-listener-" + m.name());
      t.setDaemon(true);
      t.start();
    }
  }

  private void listen(ClusterMember member) {
    long retry = FIRST_RETRY_MS;
    RunnableListener l = null;
    while (!isClosed()) {
      try {
        if (l == null) {
          Optional<RunnableListener> got = member.call(JdbcStore::listen);
          if (got.isEmpty()) {
            return; // a SQLite cluster: polled
          }
          l = adopt(got.get());
          retry = FIRST_RETRY_MS;
          wake(); // what was notified while this cluster was deaf may be claimable now
        }
        if (l.await(1_000)) {
          wake();
        }
      } catch (RatchetException e) {
        l = drop(l);
        if (!pause(retry)) {
          return;
        }
        retry = Math.min(LONGEST_RETRY_MS, retry * 2);
      }
    }
    drop(l);
  }

  private RunnableListener adopt(RunnableListener l) {
    synchronized (monitor) {
      if (closed) {
        l.close();
        throw new RatchetException(dev.ratchet.error.ErrorCode.STORE_UNAVAILABLE, "closed");
      }
      open.add(l);
      return l;
    }
  }

  private RunnableListener drop(RunnableListener l) {
    if (l != null) {
      synchronized (monitor) {
        open.remove(l);
      }
      l.close();
    }
    return null;
  }

  private boolean isClosed() {
    synchronized (monitor) {
      return closed;
    }
  }

  /** Sleeps {@code ms} unless closed first; false when closed. */
  private boolean pause(long ms) {
    synchronized (monitor) {
      if (!closed) {
        try {
          monitor.wait(ms);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return !closed;
    }
  }

  private void wake() {
    synchronized (monitor) {
      count++;
      monitor.notifyAll();
    }
  }

  @Override
  public boolean await(long timeoutMillis) {
    long until = clock.nanos() + timeoutMillis * 1_000_000;
    synchronized (monitor) {
      long left = timeoutMillis;
      while (count == seen && !closed && left > 0) {
        try {
          monitor.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        left = (until - clock.nanos()) / 1_000_000;
      }
      boolean woke = count != seen;
      seen = count;
      return woke;
    }
  }

  @Override
  public void close() {
    List<RunnableListener> toClose;
    synchronized (monitor) {
      closed = true;
      toClose = List.copyOf(open);
      open.clear();
      monitor.notifyAll();
    }
    toClose.forEach(RunnableListener::close);
  }
}
