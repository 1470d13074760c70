package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.telemetry.ExternalCall;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 item 7: every {@code tools/call} the MCP server serves is reported to the runtime's
 * observer as a server call with OpenTelemetry's MCP attributes (ratchet-telemetry's {@code
 * GenAiSpansTest} turns them into spans): {@code tools/call <tool>}, {@code mcp.method.name},
 * {@code gen_ai.tool.name}, {@code gen_ai.operation.name}; a refused call carries its error code;
 * never an argument.
 */
class McpToolSpansTest {
  private static McpSchema.CallToolRequest call(String tool, Map<String, Object> arguments) {
    return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
  }

  @Test
  void eachToolCallIsReportedWithTheMcpAttributes() {
    RuntimeFixture f = RuntimeFixture.inMemory(83);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    List<ExternalCall> calls = new ArrayList<>();
    RatchetObserver o =
        new RatchetObserver() {
          @Override
          public void called(ExternalCall call) {
            calls.add(call);
          }
        };
    Run run = f.builder("mcp-test", CrashSeam.NONE).observer(o).build().start(task, "run-1", ws);
    try (McpToolServer tools =
        new McpToolServer(
            new HeldRun(run, List::of),
            task,
            ws,
            new ServerSettings(
                "run-1", "ratchet approve run-1 --approver NAME", "http://127.0.0.1:9/", false),
            f.entropy)) {
      tools.call(call("read_file", Map.of("path", "app.py")));
      McpSchema.CallToolResult refused =
          tools.call(
              call(
                  "write_file",
                  Map.of("call_id", "c1", "path", "../outside.py", "content", "secret-value\n")));
      assertThat(refused.isError()).isTrue();
    }
    assertThat(calls).hasSize(2);
    ExternalCall read = calls.get(0);
    assertThat(read.spanName()).isEqualTo("tools/call read_file");
    assertThat(read.received()).isTrue();
    assertThat(read.runId()).isEqualTo("run-1");
    assertThat(read.outcome()).isEqualTo("ok");
    assertThat(read.attributes())
        .isEqualTo(
            Map.of(
                "mcp.method.name", "tools/call",
                "gen_ai.tool.name", "read_file",
                "gen_ai.operation.name", "execute_tool"));
    ExternalCall write = calls.get(1);
    assertThat(write.spanName()).isEqualTo("tools/call write_file");
    assertThat(write.outcome()).isNotEqualTo("ok");
    assertThat(write.attributes().values()).noneMatch(v -> v.contains("secret-value"));
  }
}
