package dev.ratchet.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.store.Fence;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Micrometer meters and OpenTelemetry spans from a real run, with the names docs/telemetry.md
 * lists.
 */
class TelemetryBindingsTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(90);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  private Ratchet ratchet(String worker, RatchetObserver o) {
    return Ratchet.builder()
        .store(f.store)
        .leases(f.leases)
        .checkpointKeys(f.keyRing)
        .approvers(f.approvers)
        .reviewers(f.reviewers)
        .clock(f.clock)
        .entropy(f.entropy)
        .workerId(worker)
        .leaseTtl(RuntimeFixture.LEASE_TTL)
        .observer(o)
        .build();
  }

  private static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }

  /** A write that executes, then a second whose key another client used: the run freezes. */
  private String writeThenConflict(RatchetObserver o) {
    Run run = ratchet("w1", o).start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", "secret-argument-value\n")));
    Proposal p = run.propose(run.action("a2", "write_file", write("app.py", "v2\n")));
    ws.execute(
        new WriteIntent(ws.namespace(), "write_file", write("app.py", "x\n"), "reversible_write"),
        p.action().idempotencyKey(),
        new Fence("run-1", "intruder", 1),
        ApprovalBinding.NONE);
    run.execute("a2");
    f.clock.advance(RuntimeFixture.LEASE_TTL.multipliedBy(2));
    ratchet("w2", o).resume(task, "run-1", ws);
    return p.action().idempotencyKey();
  }

  @Test
  void metersCountStepsCommitsFreezesAndRecoveries() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    writeThenConflict(new MeterObserver(registry));
    assertThat(registry.get(MeterObserver.STEPS).tag("outcome", "executed").counter().count())
        .isEqualTo(1.0);
    assertThat(registry.get(MeterObserver.COMMITS).tag("result", "ok").timer().count())
        .isGreaterThanOrEqualTo(4);
    assertThat(
            registry
                .get(MeterObserver.FREEZES)
                .tag("reason", "idempotency_conflict")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            registry
                .get(MeterObserver.RECOVERIES)
                .tag("found", "needs_review")
                .tag("did", "nothing")
                .counter()
                .count())
        .isEqualTo(1.0);
    assertThat(
            registry
                .get(MeterObserver.ADAPTER_CALLS)
                .tag("operation", "execute")
                .tag("outcome", "ok")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(registry.get(MeterObserver.PROPOSALS).timer().count()).isEqualTo(2);
  }

  @Test
  void spansCarryRunActionAndGenerationButNoKeyOrArgument() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    SdkTracerProvider provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    String key = writeThenConflict(new SpanObserver(provider.get(SpanObserver.INSTRUMENTATION)));
    List<SpanData> spans = exporter.getFinishedSpanItems();
    assertThat(spans)
        .extracting(SpanData::getName)
        .contains("ratchet.propose", "ratchet.commit", "ratchet.adapter_call", "ratchet.recovery");
    SpanData propose =
        spans.stream()
            .filter(s -> s.getName().equals("ratchet.propose"))
            .filter(s -> "a1".equals(s.getAttributes().get(SpanObserver.ACTION_ID)))
            .findFirst()
            .orElseThrow();
    assertThat(propose.getAttributes().get(SpanObserver.RUN_ID)).isEqualTo("run-1");
    assertThat(propose.getAttributes().get(SpanObserver.GENERATION)).isEqualTo(1L);
    assertThat(spans)
        .filteredOn(s -> s.getName().equals("ratchet.adapter_call"))
        .extracting(s -> s.getAttributes().get(SpanObserver.OPERATION))
        .contains("observe", "execute", "lookup");
    for (SpanData s : spans) {
      for (Map.Entry<AttributeKey<?>, Object> a : s.getAttributes().asMap().entrySet()) {
        assertThat(String.valueOf(a.getValue()))
            .doesNotContain(key)
            .doesNotContain("secret-argument-value");
      }
    }
  }

  @Test
  void thePrometheusEndpointServesTheMetersAsText() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    writeThenConflict(new MeterObserver(registry));
    try (PrometheusEndpoint endpoint =
        PrometheusEndpoint.start(
            registry, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body())
          .contains("ratchet_steps_total{outcome=\"executed\"} 1.0")
          .contains("ratchet_freezes_total{reason=\"idempotency_conflict\"} 1.0")
          .contains("ratchet_commits_seconds_count{result=\"ok\"}")
          .contains("ratchet_recoveries_total{did=\"nothing\",found=\"needs_review\"} 1.0");
    }
  }

  @Test
  void otlpIsConfiguredOnlyWhenAnEndpointIsGiven() {
    assertThat(Tracing.otlpEndpoint(Map.of())).isEmpty();
    assertThat(Tracing.otlpEndpoint(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/")))
        .contains("http://c:4318/v1/traces");
    assertThat(
            Tracing.otlpEndpoint(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:4318/v1/traces")))
        .contains("http://t:4318/v1/traces");
  }
}
