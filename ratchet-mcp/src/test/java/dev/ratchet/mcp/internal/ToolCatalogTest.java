package dev.ratchet.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.json.JsonObject;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which kinds become tools, and what their hints, schemas and descriptions promise. */
class ToolCatalogTest {
  private static final JsonBridge JSON =
      new JsonBridge(new JacksonMcpJsonMapper(new ObjectMapper()));

  private static ActionSpec spec(String kind, ActionClass c, String permission, String risk) {
    return ActionSpec.of(kind, c, permission, risk, (a, p) -> {}, a -> "t");
  }

  private static final List<ActionSpec> SPECS =
      List.of(
          spec("read_file", ActionClass.READ, "fs.read", "read_only"),
          spec("check", ActionClass.VERIFY, "fs.verify", "verification"),
          spec("write_file", ActionClass.WRITE, "fs.write", "reversible_write"),
          spec("delete_file", ActionClass.WRITE, "fs.write", "irreversible_write"),
          spec("format_disk", ActionClass.WRITE, "fs.admin", "irreversible_write"),
          spec("not_listed", ActionClass.READ, "fs.read", "read_only"),
          ActionSpec.receipted(
              "send_mail",
              "fs.write",
              "irreversible_write",
              ArgumentSchema.builder()
                  .text("to", 200, "the recipient")
                  .integer("copies", 1, 3, "how many")
                  .build(),
              a -> "t"),
          ActionSpec.unreceipted(
              "deploy", "fs.write", "irreversible_write", ArgumentSchema.EMPTY, a -> "t"));

  private static List<ToolCatalog.Entry> catalog(boolean openWorld) {
    TaskSpec task =
        new TaskSpec(
            "t",
            "v1",
            "p",
            "v1",
            "files",
            Set.of("fs.read", "fs.verify", "fs.write"),
            Set.of(
                "read_file",
                "check",
                "write_file",
                "delete_file",
                "format_disk",
                "send_mail",
                "deploy"),
            Set.of("t"),
            Set.of("delete_file"),
            new Budgets(10, 10, 60_000, 0),
            JsonObject.EMPTY,
            JsonObject.EMPTY);
    return ToolCatalog.of(
        task,
        SPECS,
        new ServerSettings("run-1", "ratchet approve run-1 --approver NAME", null, openWorld),
        JSON);
  }

  private static McpSchema.Tool tool(String name) {
    return catalog(true).stream()
        .map(ToolCatalog.Entry::tool)
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void onlyKindsTheTaskListsAndGrantsBecomeTools() {
    assertThat(catalog(true))
        .extracting(e -> e.tool().name())
        .containsExactlyInAnyOrder(
            "read_file", "check", "write_file", "delete_file", "send_mail", "deploy");
  }

  @Test
  void hintsSayWhatEachKindDoes() {
    McpSchema.ToolAnnotations read = tool("read_file").annotations();
    assertThat(List.of(read.readOnlyHint(), read.destructiveHint(), read.idempotentHint()))
        .containsExactly(true, false, true);
    McpSchema.ToolAnnotations check = tool("check").annotations();
    assertThat(check.readOnlyHint()).isTrue();
    McpSchema.ToolAnnotations reversible = tool("write_file").annotations();
    assertThat(List.of(reversible.readOnlyHint(), reversible.destructiveHint()))
        .containsExactly(false, false);
    McpSchema.ToolAnnotations irreversible = tool("delete_file").annotations();
    assertThat(List.of(irreversible.readOnlyHint(), irreversible.destructiveHint()))
        .containsExactly(false, true);
    assertThat(irreversible.idempotentHint()).isTrue();
    assertThat(irreversible.openWorldHint()).isTrue();
    assertThat(
            catalog(false).stream()
                .allMatch(e -> Boolean.FALSE.equals(e.tool().annotations().openWorldHint())))
        .isTrue();
  }

  @Test
  void writesRequireACallIdAndSayWhetherTheyNeedApproval() {
    Map<String, Object> schema = tool("delete_file").inputSchema();
    assertThat(schema.get("required").toString()).contains("call_id");
    assertThat(tool("delete_file").description())
        .contains("NEEDS A HUMAN APPROVAL")
        .contains("ratchet approve run-1");
    assertThat(tool("write_file").description())
        .doesNotContain("NEEDS A HUMAN APPROVAL")
        .contains("SAME call_id");
    assertThat(tool("read_file").inputSchema().get("required")).isNull();
    assertThat(tool("write_file").title()).isEqualTo("Write file");
  }

  /** The adapter's argument schema is the tool's, with call_id added to a write's. */
  @Test
  void theAdaptersArgumentSchemaIsTheToolsWithCallIdAdded() {
    Map<String, Object> schema = tool("send_mail").inputSchema();
    assertThat(schema.get("properties").toString())
        .contains("to=")
        .contains("copies=")
        .contains("call_id=");
    assertThat(schema.get("required").toString())
        .contains("call_id")
        .contains("to")
        .contains("copies");
    assertThat(schema.get("additionalProperties")).isEqualTo(false);
  }

  /** Only a write the adapter can look up by its key is idempotent across a crash (D23). */
  @Test
  void anUnreceiptedWriteIsNotAnnouncedAsIdempotent() {
    assertThat(tool("send_mail").annotations().idempotentHint()).isTrue();
    assertThat(tool("deploy").annotations().idempotentHint()).isFalse();
  }
}
