package dev.ratchet.metrics;

import dev.ratchet.outcome.Recovery;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Micrometer meters for core's observer SPI (docs/telemetry.md lists them). Tags carry bounded
 * values only (outcomes, reasons, operations): never a run id, a key or an argument, so the series
 * count stays small and nothing secret reaches a scrape.
 */
public final class MeterObserver implements RatchetObserver {
  /** Trace events made durable, by outcome. */
  public static final String STEPS = "ratchet.steps";

  /** Commit attempts and their latency, by result. */
  public static final String COMMITS = "ratchet.commits";

  /** Proposals and their latency, by outcome. */
  public static final String PROPOSALS = "ratchet.proposals";

  /** Adapter calls and their latency, by operation and outcome. */
  public static final String ADAPTER_CALLS = "ratchet.adapter.calls";

  /** Recoveries, by what they found and did. */
  public static final String RECOVERIES = "ratchet.recoveries";

  /** Runs frozen in needs_review, by reason. */
  public static final String FREEZES = "ratchet.freezes";

  /** Attempts refused because their fence is not the current lease. */
  public static final String FENCED = "ratchet.fenced";

  /** Inbox items (approvals, decisions) a worker refused, by reason. */
  public static final String INBOX_REFUSALS = "ratchet.inbox.refusals";

  /** Lease renewals refused: the worker lost the run. */
  public static final String LEASES_LOST = "ratchet.leases.lost";

  private final MeterRegistry registry;

  /**
   * Registers every rare-event series at zero (fenced, leases lost, freezes and inbox refusals by
   * reason, recoveries by what they found and did), so an alert can be written before the first
   * event; label values are lower-case wire names.
   */
  public MeterObserver(MeterRegistry registry) {
    this.registry = registry;
    fencedCounter();
    leasesLostCounter();
    for (String reason : new java.util.TreeSet<>(dev.ratchet.model.ReviewCase.REASONS)) {
      counter(FREEZES, FREEZES_HELP, "reason", reason);
    }
    for (dev.ratchet.error.DecisionRefused.Reason r :
        dev.ratchet.error.DecisionRefused.Reason.values()) {
      counter(INBOX_REFUSALS, INBOX_HELP, "reason", r.wireName());
    }
    for (Recovery.Found found : Recovery.Found.values()) {
      for (Recovery.Did did : Recovery.Did.values()) {
        recoveries(found, did);
      }
    }
  }

  private static final String FREEZES_HELP = "Runs frozen in needs_review, by reason";
  private static final String INBOX_HELP = "Inbox items (approvals, decisions) refused, by reason";

  @Override
  public void step(Step s) {
    switch (s.kind()) {
      case COMMIT:
        timer(COMMITS, "Commit attempts and their latency", "result", s.outcome())
            .record(s.duration());
        break;
      case PROPOSE:
        timer(PROPOSALS, "Proposals and their latency", "outcome", s.outcome())
            .record(s.duration());
        break;
      case ADAPTER_CALL:
        Timer.builder(ADAPTER_CALLS)
            .description("Adapter calls and their latency")
            .tag("operation", label(s.name()))
            .tag("outcome", label(s.outcome()))
            .register(registry)
            .record(s.duration());
        break;
      default:
        break; // a recovery is counted by recovered(), with what it found and did
    }
  }

  @Override
  public void traced(String runId, String actionId, String outcome) {
    counter(STEPS, "Trace events made durable", "outcome", outcome).increment();
  }

  @Override
  public void recovered(String runId, Recovery.Found found, Recovery.Did did) {
    recoveries(found, did).increment();
  }

  private Counter recoveries(Recovery.Found found, Recovery.Did did) {
    return Counter.builder(RECOVERIES)
        .description("Recoveries by what they found and did")
        .tag("found", found.wireName())
        .tag("did", did.wireName())
        .register(registry);
  }

  @Override
  public void frozen(String runId, String reason) {
    counter(FREEZES, FREEZES_HELP, "reason", reason).increment();
  }

  @Override
  public void fenced(String runId) {
    fencedCounter().increment();
  }

  private Counter fencedCounter() {
    return Counter.builder(FENCED)
        .description("Attempts refused because their fence is not the current lease")
        .register(registry);
  }

  @Override
  public void inboxRefused(String runId, String reason) {
    counter(INBOX_REFUSALS, INBOX_HELP, "reason", reason).increment();
  }

  @Override
  public void leaseLost(String runId) {
    leasesLostCounter().increment();
  }

  private Counter leasesLostCounter() {
    return Counter.builder(LEASES_LOST)
        .description("Lease renewals refused: the worker lost the run")
        .register(registry);
  }

  private Counter counter(String name, String description, String tag, String value) {
    return Counter.builder(name).description(description).tag(tag, label(value)).register(registry);
  }

  private Timer timer(String name, String description, String tag, String value) {
    return Timer.builder(name).description(description).tag(tag, label(value)).register(registry);
  }

  /**
   * Label values are lower-case wire names (a store's {@code LOST_RACE} reads {@code lost_race}).
   */
  private static String label(String value) {
    return value == null ? "none" : value.toLowerCase(java.util.Locale.ROOT);
  }
}
