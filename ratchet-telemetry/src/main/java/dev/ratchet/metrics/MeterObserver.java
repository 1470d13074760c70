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

  public MeterObserver(MeterRegistry registry) {
    this.registry = registry;
  }

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
            .tag("operation", s.name())
            .tag("outcome", s.outcome())
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
    Counter.builder(RECOVERIES)
        .description("Recoveries by what they found and did")
        .tag("found", found.wireName())
        .tag("did", did.wireName())
        .register(registry)
        .increment();
  }

  @Override
  public void frozen(String runId, String reason) {
    counter(FREEZES, "Runs frozen in needs_review", "reason", reason).increment();
  }

  @Override
  public void fenced(String runId) {
    Counter.builder(FENCED)
        .description("Attempts refused by the fence")
        .register(registry)
        .increment();
  }

  @Override
  public void inboxRefused(String runId, String reason) {
    counter(INBOX_REFUSALS, "Inbox items refused", "reason", reason).increment();
  }

  @Override
  public void leaseLost(String runId) {
    Counter.builder(LEASES_LOST)
        .description("Lease renewals refused")
        .register(registry)
        .increment();
  }

  private Counter counter(String name, String description, String tag, String value) {
    return Counter.builder(name)
        .description(description)
        .tag(tag, value == null ? "none" : value)
        .register(registry);
  }

  private Timer timer(String name, String description, String tag, String value) {
    return Timer.builder(name).description(description).tag(tag, value).register(registry);
  }
}
