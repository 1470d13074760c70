package dev.ratchet.metrics;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.Map;
import java.util.Optional;

/**
 * OpenTelemetry for a Ratchet process: OTLP over HTTP when {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set, nothing otherwise.
 */
public final class Tracing {
  private Tracing() {}

  /** The configured OTLP trace endpoint, if any, from an environment map. */
  public static Optional<String> otlpEndpoint(Map<String, String> env) {
    String traces = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    if (traces != null && !traces.isBlank()) {
      return Optional.of(traces);
    }
    String base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
    if (base != null && !base.isBlank()) {
      return Optional.of(base.replaceAll("/+$", "") + "/v1/traces");
    }
    return Optional.empty();
  }

  /** An SDK exporting spans in batches to {@code endpoint} by OTLP/HTTP; close it at exit. */
  public static OpenTelemetrySdk otlp(String endpoint) {
    OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build();
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
            .build();
    return OpenTelemetrySdk.builder().setTracerProvider(provider).build();
  }

  /** The spans observer for {@code otel}. */
  public static SpanObserver spans(OpenTelemetry otel) {
    return new SpanObserver(otel.getTracer(SpanObserver.INSTRUMENTATION));
  }
}
