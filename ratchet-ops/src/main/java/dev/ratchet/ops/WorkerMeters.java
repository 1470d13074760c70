package dev.ratchet.ops;

import dev.ratchet.worker.WorkerEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker's own series (issue 39, docs/telemetry.md), every one registered at zero when the worker
 * starts so an alert can be written before the first event: claim attempts by outcome with a
 * latency histogram, runs in flight, driving results, lease renewals (the heartbeat of each run
 * held) by result, drains, trust reloads and the runs they woke. Label values are bounded
 * lower-case words.
 */
final class WorkerMeters implements WorkerEvents {
  static final String CLAIMS = "ratchet.worker.claims";
  static final String IN_FLIGHT = "ratchet.worker.runs.in.flight";
  static final String DRIVEN = "ratchet.worker.driven";
  static final String RENEWALS = "ratchet.worker.renewals";
  static final String DRAINS = "ratchet.worker.drains";
  static final String TRUST_RELOADS = "ratchet.worker.trust.reloads";
  static final String WOKEN = "ratchet.worker.woken.runs";

  private static final List<String> CLAIM_OUTCOMES = List.of("claimed", "empty", "error");
  private static final List<String> RESULTS =
      List.of("ended", "waiting", "yielded", "refused", "no_driver", "lease_lost", "error");
  private static final List<String> RENEWAL_RESULTS = List.of("ok", "retried", "lost");

  private final MeterRegistry registry;
  private final AtomicInteger inFlight = new AtomicInteger();

  WorkerMeters(MeterRegistry registry) {
    this.registry = registry;
    CLAIM_OUTCOMES.forEach(this::claims);
    RESULTS.forEach(this::drivenCounter);
    RENEWAL_RESULTS.forEach(this::renewals);
    Gauge.builder(IN_FLIGHT, inFlight, AtomicInteger::get)
        .description("Runs this worker is driving now")
        .register(registry);
    drains();
    trustReloads();
    woken();
  }

  private Timer claims(String outcome) {
    return Timer.builder(CLAIMS)
        .description("Claim attempts by outcome, with the store's latency")
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry);
  }

  private Counter drivenCounter(String result) {
    return Counter.builder(DRIVEN)
        .description("Claims driven, by how the driving ended")
        .tag("result", result)
        .register(registry);
  }

  private Counter renewals(String result) {
    return Counter.builder(RENEWALS)
        .description("Lease renewals of the runs held (the worker's heartbeat), by result")
        .tag("result", result)
        .register(registry);
  }

  private Counter drains() {
    return Counter.builder(DRAINS)
        .description("Stop requests (SIGTERM): the worker drained its claims")
        .register(registry);
  }

  private Counter trustReloads() {
    return Counter.builder(TRUST_RELOADS)
        .description("Trust root changes the worker reloaded without a restart")
        .register(registry);
  }

  private Counter woken() {
    return Counter.builder(WOKEN)
        .description("Waiting runs woken after a trust change (ADR 0053)")
        .register(registry);
  }

  @Override
  public void claimAttempt(String outcome, Duration latency) {
    claims(outcome).record(latency);
  }

  @Override
  public void inFlight(int delta) {
    inFlight.addAndGet(delta);
  }

  @Override
  public void driven(String result) {
    drivenCounter(result).increment();
  }

  @Override
  public void renewal(String result) {
    renewals(result).increment();
  }

  @Override
  public void draining() {
    drains().increment();
  }

  @Override
  public void trustReloaded(int woken) {
    trustReloads().increment();
    woken().increment(woken);
  }
}
