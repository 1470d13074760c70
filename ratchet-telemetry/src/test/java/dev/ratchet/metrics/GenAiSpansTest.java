package dev.ratchet.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.RuntimeFixture;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 item 7: a model call and an MCP tool call reported through {@code Run.called} become
 * OpenTelemetry spans with the GenAI and MCP conventions' names, kinds and attributes (the emitters
 * are tested in ratchet-langchain4j and ratchet-mcp), timed by the runtime's clock; a refused call
 * carries {@code error.type} and status {@code ERROR}.
 */
class GenAiSpansTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(91);
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();

  private Run run() {
    Ratchet r =
        f.builder("w1", CrashSeam.NONE)
            .observer(new SpanObserver(provider.get(SpanObserver.INSTRUMENTATION)))
            .build();
    return r.start(f.task(), "run-g", f.workspace());
  }

  private SpanData span(String name) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name));
  }

  private static String attr(SpanData s, String key) {
    return s.getAttributes().get(AttributeKey.stringKey(key));
  }

  @Test
  void aModelCallIsAClientSpanWithTheGenAiAttributes() {
    Run run = run();
    String answer =
        run.called(
            "chat gpt-4o",
            false,
            Map.of(
                "gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai",
                "gen_ai.request.model", "gpt-4o"),
            () -> {
              f.clock.advance(Duration.ofMillis(250));
              return "hello";
            });
    assertThat(answer).isEqualTo("hello");
    SpanData s = span("chat gpt-4o");
    assertThat(s.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(attr(s, "gen_ai.operation.name")).isEqualTo("chat");
    assertThat(attr(s, "gen_ai.provider.name")).isEqualTo("openai");
    assertThat(attr(s, "gen_ai.request.model")).isEqualTo("gpt-4o");
    assertThat(attr(s, "ratchet.run_id")).isEqualTo("run-g");
    assertThat(attr(s, "ratchet.outcome")).isEqualTo("ok");
    assertThat(attr(s, "error.type")).isNull();
    assertThat(s.getEndEpochNanos() - s.getStartEpochNanos())
        .as("timed by the runtime's clock")
        .isEqualTo(Duration.ofMillis(250).toNanos());
  }

  @Test
  void aRefusedMcpToolCallIsAServerSpanWithTheMcpAttributesAndItsError() {
    Run run = run();
    Throwable t =
        catchThrowable(
            () ->
                run.called(
                    "tools/call pay_order",
                    true,
                    Map.of(
                        "mcp.method.name", "tools/call",
                        "gen_ai.tool.name", "pay_order",
                        "gen_ai.operation.name", "execute_tool"),
                    () -> {
                      throw RatchetException.contract("arguments.amount: must be positive");
                    }));
    assertThat(t).isInstanceOf(RatchetException.class);
    SpanData s = span("tools/call pay_order");
    assertThat(s.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(attr(s, "mcp.method.name")).isEqualTo("tools/call");
    assertThat(attr(s, "gen_ai.tool.name")).isEqualTo("pay_order");
    assertThat(attr(s, "gen_ai.operation.name")).isEqualTo("execute_tool");
    assertThat(attr(s, "error.type")).isEqualTo("CONTRACT");
    assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
  }
}
