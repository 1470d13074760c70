package dev.ratchet.console;

import dev.ratchet.error.ErrorCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * The console's meters (docs/telemetry.md), each with its HELP text and registered at zero when the
 * console starts (issue 39), so an alert can be written before the first event. The refusal reason
 * is a bounded lower-case word: a guard's reason or an error code.
 */
final class ConsoleMeters {
  /** Guard refusals besides the error codes. */
  static final java.util.List<String> GUARD_REASONS =
      java.util.List.of("no_session", "bad_request", "bad_login", "no_csrf");

  private final MeterRegistry registry;

  /** {@code registry} may be null: then nothing is counted. */
  ConsoleMeters(MeterRegistry registry) {
    this.registry = registry;
    if (registry == null) {
      return;
    }
    deliveredCounter();
    GUARD_REASONS.forEach(this::refusedCounter);
    for (ErrorCode c : ErrorCode.values()) {
      refusedCounter(c.name());
    }
  }

  void delivered() {
    if (registry != null) {
      deliveredCounter().increment();
    }
  }

  private Counter deliveredCounter() {
    return Counter.builder(ConsoleServer.DELIVERED)
        .description("Decisions signed in a browser and delivered to a run's inbox")
        .register(registry);
  }

  void refused(String reason) {
    if (registry != null) {
      refusedCounter(reason).increment();
    }
  }

  private Counter refusedCounter(String reason) {
    return Counter.builder(ConsoleServer.REFUSED)
        .description("Console requests refused, by reason (a guard's or an error code)")
        .tag("reason", reason.toLowerCase(Locale.ROOT))
        .register(registry);
  }
}
