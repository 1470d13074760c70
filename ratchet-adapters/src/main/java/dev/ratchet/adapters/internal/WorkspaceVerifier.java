package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.Verification;
import dev.ratchet.adapters.CommandResult;
import dev.ratchet.adapters.CommandRunner;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads and verifications of the workspace, run under the workspace lock. Evidence is bound to the
 * revision and fingerprint it was taken on; a command that changes the visible tree while it runs
 * cannot vouch for either state, so its evidence does not pass.
 */
public final class WorkspaceVerifier {
  private final Path root;
  private final SafePaths paths;
  private final TreeScanner scanner;
  private final WorkspaceWriter files;
  private final CommandRunner commands;

  public WorkspaceVerifier(
      Path root,
      SafePaths paths,
      TreeScanner scanner,
      WorkspaceWriter files,
      CommandRunner commands) {
    this.root = root;
    this.paths = paths;
    this.scanner = scanner;
    this.files = files;
    this.commands = commands;
  }

  public JsonObject readFile(JsonObject arguments, long revision) {
    String path = ((JsonString) arguments.get("path").orElseThrow()).value();
    SafePaths.Resolved r = paths.resolve("arguments.path", path);
    if (!r.exists()) {
      throw RatchetException.contract("arguments.path: no file '" + path + "' in the workspace");
    }
    byte[] bytes = files.readBounded(r.path());
    return JsonObject.builder()
        .put("path", path)
        .put("content", utf8(path, bytes))
        .put("content_sha256", Canonical.sha256Hex(bytes))
        .put("revision", revision)
        .build();
  }

  public Verification verify(String kind, JsonObject arguments, JsonObject expectations, long rev) {
    if (WorkspaceActions.RUN_TESTS.equals(kind)) {
      Fields.exact(arguments, "action.arguments", "target").text("target");
      return expectedFiles(expectations, rev);
    }
    if (WorkspaceActions.RUN_COMMAND.equals(kind) && commands != null) {
      String name = Fields.exact(arguments, "action.arguments", "command").text("command");
      return command(name, rev);
    }
    throw RatchetException.contract("action.kind: '" + kind + "' is not a workspace verifier");
  }

  private Verification expectedFiles(JsonObject expectations, long revision) {
    JsonObject expected =
        Fields.exact(expectations, "verifier", "expected_files").obj("expected_files");
    List<JsonValue> mismatches = new ArrayList<>();
    for (Map.Entry<String, JsonValue> e : expected.members().entrySet()) {
      if (!(e.getValue() instanceof JsonString want)) {
        throw RatchetException.contract(
            "verifier.expected_files." + e.getKey() + ": must be a string");
      }
      SafePaths.Resolved r = paths.resolve("verifier.expected_files", e.getKey());
      boolean same =
          r.exists()
              && Canonical.sha256Hex(files.readBounded(r.path()))
                  .equals(Canonical.sha256Hex(want.value()));
      if (!same) {
        mismatches.add(new JsonString(e.getKey()));
      }
    }
    TreeState state = scanner.scan();
    JsonObject detail =
        JsonObject.builder()
            .put("mismatches", new JsonArray(mismatches))
            .put("git", gitJson(state))
            .build();
    return new Verification(mismatches.isEmpty(), revision, state.fingerprint(), detail);
  }

  private Verification command(String name, long revision) {
    TreeState before = scanner.scan();
    CommandResult result =
        commands.run(
            name, root, List.of(root.resolve(dev.ratchet.adapters.WorkspaceAdapter.CONTROL_DIR)));
    TreeState after = scanner.scan();
    boolean changed = !before.fingerprint().equals(after.fingerprint());
    JsonObject detail =
        result
            .toJson()
            .with("workspace_changed", dev.ratchet.json.JsonBool.of(changed))
            .with("git", gitJson(before));
    if (after.drift() != null && before.drift() == null) {
      // The command left a control structure behind (D29): named in the evidence, and no pass.
      detail = detail.with("control_drift", new JsonString(after.drift()));
    }
    return new Verification(result.succeeded() && !changed, revision, before.fingerprint(), detail);
  }

  /**
   * The git part of a verification's evidence: HEAD and dirty; the configuration keys that were not
   * obeyed, when there are any; and, when a control structure is refused, why (D29).
   */
  private static JsonValue gitJson(TreeState s) {
    if (s.git() == null) {
      return s.drift() == null
          ? dev.ratchet.json.JsonNull.INSTANCE
          : JsonObject.builder().put("refused", s.drift()).build();
    }
    JsonObject.Builder b =
        JsonObject.builder().put("head", s.git().head()).put("dirty", s.git().dirty());
    if (!s.git().neutralised().isEmpty()) {
      b.put(
          "neutralised",
          new JsonArray(
              s.git().neutralised().stream().map(k -> (JsonValue) new JsonString(k)).toList()));
    }
    return b.build();
  }

  private static String utf8(String path, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw RatchetException.contract("arguments.path: '" + path + "' is not UTF-8 text");
    }
  }
}
