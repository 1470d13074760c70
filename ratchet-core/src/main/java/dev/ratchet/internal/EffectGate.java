package dev.ratchet.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;

/**
 * Whether an unreceipted effect is in flight (D23): from before its {@code effect_started} mark
 * until its result is durable. A lease is never released meanwhile, so {@code close} and a draining
 * worker wait here.
 */
final class EffectGate {
  private final Object lock = new Object();
  private boolean inFlight;

  void set(boolean running) {
    synchronized (lock) {
      inFlight = running;
      lock.notifyAll();
    }
  }

  void awaitIdle() {
    synchronized (lock) {
      while (inFlight) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RatchetException(
              ErrorCode.INTERNAL, "interrupted while an unreceipted effect is in flight");
        }
      }
    }
  }
}
