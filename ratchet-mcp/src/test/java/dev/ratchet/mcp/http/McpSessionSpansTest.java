package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratchet.Run;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.metrics.SpanObserver;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a {@code tools/call} served over streamable HTTP becomes a span carrying {@code
 * mcp.session.id}, the id of the transport session it came in (the {@code Mcp-Session-Id} the
 * client sent), read from the real span observer through an in-memory exporter; two clients are two
 * sessions and give two ids, and a session's calls share its id.
 */
class McpSessionSpansTest {
  private static final AttributeKey<String> SESSION = AttributeKey.stringKey("mcp.session.id");

  @TempDir Path dir;
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private McpHttpServer http;
  private McpToolServer tools;

  @AfterEach
  void tearDown() {
    if (http != null) {
      http.close();
    }
    if (tools != null) {
      tools.close();
    }
    provider.close();
  }

  /** A client whose tools/call requests' {@code Mcp-Session-Id} headers land in {@code sent}. */
  private static McpSyncClient client(URI base, String token, Set<String> sent) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(base.toString())
            .endpoint("/runs/run-1/mcp")
            .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
            .addHttpRequestCustomizer(
                (request, method, uri, body, context) -> {
                  request.header("Authorization", "Bearer " + token);
                  if (body != null && body.contains("\"tools/call\"")) {
                    request
                        .copy()
                        .build()
                        .headers()
                        .firstValue("Mcp-Session-Id")
                        .ifPresent(sent::add);
                  }
                })
            .build();
    McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
    c.initialize();
    return c;
  }

  private static McpSchema.CallToolRequest read() {
    return McpSchema.CallToolRequest.builder("read_file")
        .arguments(Map.of("path", "app.py"))
        .build();
  }

  @Test
  void eachToolCallSpanCarriesTheIdOfTheSessionItCameIn() {
    RuntimeFixture f = RuntimeFixture.inMemory(57);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    Run run =
        f.builder("mcp-test", CrashSeam.NONE)
            .observer(new SpanObserver(provider.get(SpanObserver.INSTRUMENTATION)))
            .build()
            .start(task, "run-1", ws);
    tools =
        new McpToolServer(
            new HeldRun(run),
            task,
            ws,
            new ServerSettings("run-1", "ratchet approve run-1 --approver NAME", null, false),
            f.entropy);
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    String token = tokens.issue("agent", List.of("run-1"), f.entropy, Instant.EPOCH);
    http = new McpHttpServer("127.0.0.1", 0, tokens, "test").mount("run-1", tools);
    URI base = http.start();

    Set<String> sentByA = new CopyOnWriteArraySet<>();
    Set<String> sentByB = new CopyOnWriteArraySet<>();
    McpSyncClient a = client(base, token, sentByA);
    McpSyncClient b = client(base, token, sentByB);
    assertThat(a.callTool(read()).isError()).isFalse();
    assertThat(a.callTool(read()).isError()).isFalse();
    assertThat(b.callTool(read()).isError()).isFalse();

    assertThat(sentByA).as("one session for client A's calls").hasSize(1);
    assertThat(sentByB).as("one session for client B's calls").hasSize(1);
    String sessionA = sentByA.iterator().next();
    String sessionB = sentByB.iterator().next();
    assertThat(sessionA).isNotEqualTo(sessionB);

    List<SpanData> calls =
        exporter.getFinishedSpanItems().stream()
            .filter(s -> s.getName().equals("tools/call read_file"))
            .toList();
    assertThat(calls).hasSize(3);
    assertThat(calls).allSatisfy(s -> assertThat(s.getKind()).isEqualTo(SpanKind.SERVER));
    assertThat(calls)
        .extracting(s -> s.getAttributes().get(SESSION))
        .containsExactly(sessionA, sessionA, sessionB);
  }
}
