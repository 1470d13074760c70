package dev.ratchet.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.outcome.Recovery;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: an operator can write an alert before the first rare event, so every rare-event series
 * exists at zero from the start, with help text, and label values are lower-case.
 */
class RareEventCountersTest {
  @Test
  void everyRareEventSeriesExistsAtZeroBeforeAnythingHappens() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new MeterObserver(registry);
    assertThat(registry.get(MeterObserver.FENCED).counter().count()).isZero();
    assertThat(registry.get(MeterObserver.LEASES_LOST).counter().count()).isZero();
    for (String reason : ReviewCase.REASONS) {
      assertThat(registry.get(MeterObserver.FREEZES).tag("reason", reason).counter().count())
          .isZero();
    }
    for (DecisionRefused.Reason r : DecisionRefused.Reason.values()) {
      assertThat(
              registry
                  .get(MeterObserver.INBOX_REFUSALS)
                  .tag("reason", r.wireName())
                  .counter()
                  .count())
          .isZero();
    }
    assertThat(
            registry
                .get(MeterObserver.RECOVERIES)
                .tag("found", Recovery.Found.DRIFT.wireName())
                .tag("did", Recovery.Did.FROZEN.wireName())
                .counter()
                .count())
        .isZero();
    String scrape = registry.scrape();
    assertThat(scrape)
        .contains("ratchet_fenced_total 0.0")
        .contains("ratchet_leases_lost_total 0.0")
        .contains("ratchet_freezes_total{reason=\"environment_drift\"} 0.0")
        .contains("ratchet_inbox_refusals_total{reason=\"untrusted_signer\"} 0.0");
    scrape
        .lines()
        .filter(l -> l.startsWith("# HELP ratchet_"))
        .forEach(l -> assertThat(l.split(" ", 4)).hasSize(4));
  }

  @Test
  void labelValuesAreLowerCase() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MeterObserver o = new MeterObserver(registry);
    o.frozen("r1", "ENVIRONMENT_DRIFT");
    assertThat(
            registry
                .get(MeterObserver.FREEZES)
                .tag("reason", "environment_drift")
                .counter()
                .count())
        .isEqualTo(1.0);
  }
}
