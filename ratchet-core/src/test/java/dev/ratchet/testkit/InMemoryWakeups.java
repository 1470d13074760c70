package dev.ratchet.testkit;

import dev.ratchet.schedule.RunnableListener;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory store's wake-ups: each listener counts the wake-ups since it was opened, as a
 * PostgreSQL connection that {@code LISTEN}s receives every notification sent after it listened.
 */
final class InMemoryWakeups {
  private final List<Listener> listeners = new ArrayList<>();

  synchronized RunnableListener listener() {
    Listener l = new Listener();
    listeners.add(l);
    return l;
  }

  synchronized void wake() {
    listeners.forEach(Listener::wake);
  }

  private synchronized void remove(Listener l) {
    listeners.remove(l);
  }

  private final class Listener implements RunnableListener {
    private long pending;

    synchronized void wake() {
      pending++;
      notifyAll();
    }

    @Override
    public synchronized boolean await(long timeoutMillis) {
      // Bounded by wall time passing in Object.wait: this listener reads no clock of its own.
      if (pending == 0 && timeoutMillis > 0) {
        try {
          wait(timeoutMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      boolean woke = pending > 0;
      pending = 0;
      return woke;
    }

    @Override
    public void close() {
      remove(this);
    }
  }
}
