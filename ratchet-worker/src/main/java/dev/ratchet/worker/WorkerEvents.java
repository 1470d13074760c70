package dev.ratchet.worker;

import java.time.Duration;

/**
 * What a {@link Worker} reports for worker-level metrics (issue 39, docs/telemetry.md): claim
 * attempts by outcome with the store's latency, runs in flight, driving results, lease renewals
 * (the worker's heartbeat on each run it holds), drains and trust reloads. Values are bounded
 * lower-case words, never a run id. Called from the worker's threads; implementations are
 * thread-safe and never throw. Every method does nothing by default.
 */
public interface WorkerEvents {
  /** Reports nothing. */
  WorkerEvents NONE = new WorkerEvents() {};

  /** One claim attempt: {@code claimed}, {@code empty} or {@code error}, and the store's time. */
  default void claimAttempt(String outcome, Duration latency) {}

  /** A claimed run is driven ({@code +1}) or released ({@code -1}). */
  default void inFlight(int delta) {}

  /**
   * How driving one claim ended: {@code ended}, {@code waiting}, {@code yielded}, {@code refused},
   * {@code no_driver}, {@code lease_lost} or {@code error}.
   */
  default void driven(String result) {}

  /** One lease renewal: {@code ok}, {@code retried} (failed, lease still valid) or {@code lost}. */
  default void renewal(String result) {}

  /** The worker was asked to stop: it drains the claims in hand. */
  default void draining() {}

  /** The host's trust roots changed: {@code woken} waiting runs were made runnable again. */
  default void trustReloaded(int woken) {}
}
