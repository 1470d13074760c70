package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapter.WorkspacePaths;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.Text;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The workspace's action kinds and their argument rules. Every write names the content digest it
 * expects the file to have now ({@code expected_sha256}, null for "must not exist"), which is part
 * of the intent and so of its digest: the write is conditional at the adapter, not only at the
 * runtime's revision check.
 */
public final class WorkspaceActions {
  public static final String READ_FILE = "read_file";
  public static final String WRITE_FILE = "write_file";
  public static final String APPEND_FILE = "append_file";
  public static final String DELETE_FILE = "delete_file";
  public static final String RUN_TESTS = "run_tests";
  public static final String RUN_COMMAND = "run_command";

  /** A validated write: content is null for a delete, expected is null for "absent". */
  public record WriteOp(String kind, String path, String content, String expected) {}

  private final int maxFileBytes;
  private final boolean commands;

  public WorkspaceActions(int maxFileBytes, boolean commands) {
    this.maxFileBytes = maxFileBytes;
    this.commands = commands;
  }

  public List<ActionSpec> specs() {
    List<ActionSpec> specs = new ArrayList<>();
    specs.add(
        ActionSpec.of(
            READ_FILE,
            ActionClass.READ,
            "workspace.read",
            "read_only",
            ArgumentSchema.builder().add(pathProperty()).build(),
            (a, p) ->
                WorkspacePaths.require(p + ".path", Fields.exact(a, p, "path").string("path")),
            WorkspaceActions::pathOf));
    specs.add(spec(WRITE_FILE, "reversible_write"));
    specs.add(spec(APPEND_FILE, "irreversible_write"));
    specs.add(spec(DELETE_FILE, "irreversible_write"));
    specs.add(
        ActionSpec.of(
            RUN_TESTS,
            ActionClass.VERIFY,
            "tests.run",
            "verification",
            ArgumentSchema.builder()
                .text("target", Text.MAX_TEXT, "the test target the task allowlists")
                .build(),
            (a, p) -> Fields.exact(a, p, "target").text("target"),
            a -> ((JsonString) a.get("target").orElseThrow()).value()));
    if (commands) {
      specs.add(
          ActionSpec.of(
              RUN_COMMAND,
              ActionClass.VERIFY,
              "commands.run",
              "verification",
              ArgumentSchema.builder()
                  .text("command", Text.MAX_TEXT, "the command the task allowlists")
                  .build(),
              (a, p) -> Fields.exact(a, p, "command").text("command"),
              a -> ((JsonString) a.get("command").orElseThrow()).value()));
    }
    return List.copyOf(specs);
  }

  private ActionSpec spec(String kind, String risk) {
    return ActionSpec.of(
        kind,
        ActionClass.WRITE,
        "workspace.write",
        risk,
        writeSchema(kind),
        (a, p) -> parse(kind, a, p),
        WorkspaceActions::pathOf);
  }

  /** The argument schema of a write kind (the same rules as {@link #parse}). */
  private ArgumentSchema writeSchema(String kind) {
    ArgumentSchema.Builder b = ArgumentSchema.builder().add(pathProperty());
    if (!kind.equals(DELETE_FILE)) {
      b.add(
          new ArgumentSchema.Property(
              "content",
              ArgumentSchema.Type.STRING,
              false,
              "the text to write (at most " + maxFileBytes + " UTF-8 bytes)",
              null,
              maxFileBytes,
              null,
              null,
              null,
              null));
    }
    return b.hex64(
            "expected_sha256",
            !kind.equals(DELETE_FILE),
            "the SHA-256 the file has now; null when it must not exist")
        .build();
  }

  private static ArgumentSchema.Property pathProperty() {
    return new ArgumentSchema.Property(
        "path",
        ArgumentSchema.Type.STRING,
        false,
        "a relative path in the workspace",
        1,
        WorkspacePaths.MAX_PATH,
        WorkspacePaths.PATTERN,
        null,
        null,
        null);
  }

  /** Validates {@code read_file} arguments (CONTRACT on any problem). */
  public void validateRead(JsonObject arguments) {
    readArguments(arguments, "action.arguments");
  }

  private static void readArguments(JsonObject a, String p) {
    WorkspacePaths.require(p + ".path", Fields.exact(a, p, "path").string("path"));
  }

  /** Validates a write intent's kind and arguments (CONTRACT on any problem). */
  public WriteOp writeOp(WriteIntent intent) {
    String k = intent.kind();
    if (!k.equals(WRITE_FILE) && !k.equals(APPEND_FILE) && !k.equals(DELETE_FILE)) {
      throw RatchetException.contract("intent.kind: '" + k + "' is not a workspace write");
    }
    return parse(k, intent.arguments(), "intent.arguments");
  }

  private WriteOp parse(String kind, JsonObject a, String p) {
    Fields f =
        kind.equals(DELETE_FILE)
            ? Fields.exact(a, p, "path", "expected_sha256")
            : Fields.exact(a, p, "path", "content", "expected_sha256");
    String path = WorkspacePaths.require(f.path("path"), f.string("path"));
    String expected = f.optionalHex64("expected_sha256");
    if (kind.equals(DELETE_FILE)) {
      if (expected == null) {
        throw RatchetException.contract(
            f.path("expected_sha256") + ": a delete must name the digest of the file it removes");
      }
      return new WriteOp(kind, path, null, expected);
    }
    String content = f.string("content");
    if (content.getBytes(StandardCharsets.UTF_8).length > maxFileBytes) {
      throw RatchetException.contract(
          f.path("content") + ": exceeds the workspace limit of " + maxFileBytes + " bytes");
    }
    return new WriteOp(kind, path, content, expected);
  }

  private static String pathOf(JsonObject a) {
    return ((JsonString) a.get("path").orElseThrow()).value();
  }
}
