package dev.ratchet.metrics;

import dev.ratchet.telemetry.ExternalCall;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
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
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  private final Tracer tracer;

  public SpanObserver(Tracer tracer) {
    this.tracer = tracer;
  }

  /** The span name of a step kind. */
  public static String spanName(Step.Kind kind) {
    return "ratchet." + kind.wireName();
  }

  /**
   * A model or MCP tool call: a span with the caller's GenAI/MCP attributes, the run id, the
   * outcome, and {@code error.type} with status {@code ERROR} unless it ended well.
   */
  @Override
  public void called(ExternalCall c) {
    SpanBuilder b =
        tracer
            .spanBuilder(c.spanName())
            .setSpanKind(c.received() ? SpanKind.SERVER : SpanKind.CLIENT)
            .setStartTimestamp(c.start())
            .setAttribute(RUN_ID, c.runId())
            .setAttribute(OUTCOME, c.outcome());
    c.attributes().forEach((k, v) -> b.setAttribute(AttributeKey.stringKey(k), v));
    if (!"ok".equals(c.outcome())) {
      b.setAttribute(ERROR_TYPE, c.outcome());
    }
    Span span = b.startSpan();
    if (!"ok".equals(c.outcome())) {
      span.setStatus(StatusCode.ERROR, c.outcome());
    }
    span.end(c.start().plus(c.duration()));
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
