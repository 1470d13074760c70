package dev.ratchet.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A call a run made outside the runtime's own steps — a model call, an MCP tool call — as a span
 * exporter needs it (docs/telemetry.md). Its attributes follow OpenTelemetry's GenAI and MCP
 * semantic conventions ({@code gen_ai.operation.name}, {@code gen_ai.request.model}, {@code
 * gen_ai.provider.name}, {@code gen_ai.tool.name}, {@code mcp.method.name}, ...): names and model
 * ids only, never a prompt, an argument or a result (they may hold secrets).
 *
 * @param spanName the convention's span name, e.g. {@code chat gpt-4o} or {@code tools/call
 *     pay_order}
 * @param received true when the run's host received the call (an MCP server's {@code tools/call}: a
 *     server span), false when the run made it (a model call: a client span)
 * @param runId the run the call was made for
 * @param attributes the convention's attributes, by their OpenTelemetry names
 * @param start when the call began, by the run's clock
 * @param duration how long it took, by the run's clock
 * @param outcome {@code ok}, or an error code ({@code INTERNAL} for anything else thrown)
 */
public record ExternalCall(
    String spanName,
    boolean received,
    String runId,
    Map<String, String> attributes,
    Instant start,
    Duration duration,
    String outcome) {
  public ExternalCall {
    Objects.requireNonNull(spanName, "spanName");
    Objects.requireNonNull(runId, "runId");
    attributes = Map.copyOf(attributes);
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
  }
}
