package dev.ratchet.metrics;

import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;

/**
 * One OpenTelemetry span per run step (docs/telemetry.md): {@code ratchet.propose}, {@code
 * ratchet.commit}, {@code ratchet.adapter_call}, {@code ratchet.recovery}, timed by the runtime's
 * clock. Attributes: run id, action id, generation, the adapter operation and the outcome; never a
 * key, an idempotency key or an argument value (they may hold secrets).
 */
public final class SpanObserver implements RatchetObserver {
  public static final String INSTRUMENTATION = "dev.ratchet";
  public static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("ratchet.run_id");
  public static final AttributeKey<String> ACTION_ID = AttributeKey.stringKey("ratchet.action_id");
  public static final AttributeKey<Long> GENERATION = AttributeKey.longKey("ratchet.generation");
  public static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("ratchet.adapter.operation");
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("ratchet.outcome");

  private final Tracer tracer;

  public SpanObserver(Tracer tracer) {
    this.tracer = tracer;
  }

  /** The span name of a step kind. */
  public static String spanName(Step.Kind kind) {
    return "ratchet." + kind.wireName();
  }

  @Override
  public void step(Step s) {
    SpanBuilder b =
        tracer
            .spanBuilder(spanName(s.kind()))
            .setStartTimestamp(s.start())
            .setAttribute(RUN_ID, s.runId())
            .setAttribute(OUTCOME, s.outcome());
    if (s.actionId() != null) {
      b.setAttribute(ACTION_ID, s.actionId());
    }
    if (s.generation() >= 0) {
      b.setAttribute(GENERATION, s.generation());
    }
    if (s.kind() == Step.Kind.ADAPTER_CALL) {
      b.setAttribute(OPERATION, s.name());
    }
    Span span = b.startSpan();
    if (!"ok".equals(s.outcome())) {
      span.setStatus(StatusCode.ERROR, s.outcome());
    }
    span.end(s.start().plus(s.duration()));
  }
}
