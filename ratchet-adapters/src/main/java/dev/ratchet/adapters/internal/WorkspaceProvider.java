package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.adapter.WorkspacePaths;
import dev.ratchet.adapters.CommandRunner;
import dev.ratchet.adapters.CommandSandbox;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.seam.CrashSeam;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The workspace adapter on a real directory (docs/task-format.md). {@code connect} is {@code
 * {"directory": PATH}}; {@code task.environment} is {@code {"files": {path: content}}} — the
 * initial state the task expects — and optionally {@code "commands": {name: [argv…]}}, the
 * allowlisted commands behind the {@code run_command} verifier, and {@code "network": true} when
 * those commands may use the network. Commands run in the bubblewrap sandbox ({@link
 * CommandSandbox}) unless the operator opts out with {@code RATCHET_UNSANDBOXED_COMMANDS}; the
 * Ratchet home ({@code RATCHET_HOME} or {@code ./.ratchet}) is hidden from them when it lies inside
 * the workspace. Starting a run creates a missing directory from the initial files, and refuses an
 * existing one that does not hold them. Registered in {@code
 * META-INF/services/dev.ratchet.adapter.AdapterProvider}.
 */
public final class WorkspaceProvider implements AdapterProvider {
  private static final Set<String> ENVIRONMENT_KEYS = Set.of("files", "commands", "network");
  private static final String RUN_COMMAND = "run_command";

  @Override
  public String namespace() {
    return WorkspaceAdapter.NAMESPACE;
  }

  /**
   * The workspace's kinds depend only on its configuration (commands or not), so they are read from
   * an adapter opened on an empty scratch directory: the plan is checked by the adapter's own rules
   * before the real workspace is touched.
   */
  @Override
  public List<ActionSpec> actionSpecs(JsonObject taskEnvironment, Context context) {
    JsonObject environment = environment(taskEnvironment);
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("ratchet-specs-");
      WorkspaceAdapter.Builder b = builder(scratch, environment, context.withSeam(CrashSeam.NONE));
      try (WorkspaceAdapter a = b.open()) {
        return a.actionSpecs();
      }
    } catch (IOException e) {
      throw new RatchetException(
          dev.ratchet.error.ErrorCode.INTERNAL,
          "cannot create a scratch directory: " + e.getMessage());
    } finally {
      if (scratch != null) {
        deleteTree(scratch);
      }
    }
  }

  @Override
  public JsonObject resolveConnect(JsonObject connect, Path baseDir, String path) {
    Fields f = Fields.exact(connect, path, "directory");
    Path dir = baseDir.resolve(f.text("directory")).toAbsolutePath().normalize();
    return JsonObject.builder().put("directory", dir.toString()).build();
  }

  /**
   * Targets follow the workspace's path rules ({@link WorkspacePaths}: relative, canonical, no
   * {@code ..}); every initial and expected file is a target; every {@code run_command} step names
   * a command on {@code task.environment.commands}.
   */
  @Override
  public void checkTask(TaskOutline task) {
    for (String t : new TreeSet<>(task.targets())) {
      WorkspacePaths.require("task.targets: '" + t + "'", t);
    }
    JsonObject environment = knownFields(task.environment());
    JsonObject files =
        Fields.asObject(
            environment.get("files").orElse(JsonObject.EMPTY), "task.environment.files");
    within(task, files, "task.environment.files");
    PlanContents.check(files.members(), task.plan());
    if (!task.verifier().members().isEmpty()) {
      within(
          task,
          Fields.exact(task.verifier(), "task.verifier", "expected_files").obj("expected_files"),
          "task.verifier.expected_files");
    }
    Set<String> commands =
        environment.has("commands")
            ? Fields.asObject(
                    environment.get("commands").orElseThrow(), "task.environment.commands")
                .members()
                .keySet()
            : Set.of();
    for (int i = 0; i < task.plan().size(); i++) {
      TaskOutline.Step step = task.plan().get(i);
      if (RUN_COMMAND.equals(step.kind())) {
        String c =
            Fields.exact(step.arguments(), "plan[" + i + "].arguments", "command").text("command");
        if (!commands.contains(c)) {
          throw RatchetException.contract(
              "plan["
                  + i
                  + "].arguments.command: '"
                  + c
                  + "' is not in task.environment.commands (the command allowlist)");
        }
      }
    }
  }

  private static void within(TaskOutline task, JsonObject files, String field) {
    for (String path : files.members().keySet()) {
      WorkspacePaths.require(field + "." + path, path);
      if (!task.targets().contains(path)) {
        throw RatchetException.contract(
            field + "." + path + ": is not in task.targets (every file the task names must be)");
      }
    }
  }

  @Override
  public EnvironmentAdapter open(
      JsonObject taskEnvironment, JsonObject connect, boolean prepare, Context context) {
    Path dir = Path.of(Fields.exact(connect, "connect", "directory").text("directory"));
    JsonObject environment = environment(taskEnvironment);
    JsonObject files =
        Fields.asObject(environment.get("files").orElse(null), "task.environment.files");
    if (prepare) {
      prepare(dir, files);
    } else if (!Files.isDirectory(dir)) {
      throw RatchetException.contract(
          "connect.directory: the workspace " + dir + " does not exist (was it moved?)");
    }
    return builder(dir, environment, context).open();
  }

  private static WorkspaceAdapter.Builder builder(
      Path dir, JsonObject environment, Context context) {
    WorkspaceAdapter.Builder b =
        WorkspaceAdapter.builder(dir)
            .clock(context.clock())
            .entropy(context.entropy())
            .crashSeam(context.seam());
    CommandSandbox sandbox = CommandSandboxes.fromEnvironment(environment);
    b.sandbox(sandbox.withNetwork(false));
    if (environment.has("commands")) {
      b.commands(
          commands(
              Fields.asObject(
                  environment.get("commands").orElseThrow(), "task.environment.commands"),
              sandbox));
    }
    return b;
  }

  private static JsonObject environment(JsonObject environment) {
    JsonObject e = knownFields(environment);
    if (!e.has("files")) {
      throw RatchetException.contract("task.environment: missing fields [files]");
    }
    return e;
  }

  /**
   * The environment's fields judged without requiring {@code files}: a program that embeds Ratchet
   * and opens an existing directory (D31's library path) need not declare initial content; a task
   * file, which prepares its workspace from it, must ({@link #environment}).
   */
  private static JsonObject knownFields(JsonObject environment) {
    Set<String> unknown = new TreeSet<>(environment.members().keySet());
    unknown.removeAll(ENVIRONMENT_KEYS);
    if (!unknown.isEmpty()) {
      throw RatchetException.contract("task.environment: unknown fields " + unknown);
    }
    return environment;
  }

  private static void deleteTree(Path root) {
    try (java.util.stream.Stream<Path> s = Files.walk(root)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover scratch directory in the temporary directory is harmless.
    }
  }

  /** Creates a missing workspace from the initial files; an existing one must hold them. */
  private static void prepare(Path dir, JsonObject files) {
    boolean fresh = !Files.exists(dir);
    try {
      if (fresh) {
        Files.createDirectories(dir);
      }
      if (!fresh) {
        refuseUsed(dir);
      }
      for (Map.Entry<String, JsonValue> e : files.members().entrySet()) {
        String where = "task.environment.files." + e.getKey();
        String rel = WorkspacePaths.require(where, e.getKey());
        if (!(e.getValue() instanceof JsonString content)) {
          throw RatchetException.contract(where + ": must be a string (the file's content)");
        }
        Path file = dir.resolve(rel);
        if (fresh) {
          Files.createDirectories(file.getParent());
          Files.writeString(file, content.value(), StandardCharsets.UTF_8);
        } else if (!Files.isRegularFile(file)
            || !Files.readString(file, StandardCharsets.UTF_8).equals(content.value())) {
          throw RatchetException.contract(
              where
                  + ": the workspace "
                  + dir
                  + " does not hold the task's initial content: start from a fresh directory"
                  + " (remove it, or point connect.directory elsewhere)");
        }
      }
    } catch (IOException e) {
      throw RatchetException.contract(
          "connect.directory: "
              + dir
              + " cannot be prepared ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  /**
   * A directory an earlier run already wrote to cannot hold a new run's initial state as the task
   * means it (its journal's receipts are another run's): refused, as for changed files.
   */
  private static void refuseUsed(Path dir) {
    Path journal = dir.resolve(WorkspaceAdapter.CONTROL_DIR).resolve("receipts.db");
    if (!Files.isRegularFile(journal)) {
      return;
    }
    long writes;
    try (ReceiptJournal j = ReceiptJournal.open(journal)) {
      writes = j.revision();
    }
    if (writes > 0) {
      throw RatchetException.contract(
          "connect.directory: the workspace "
              + dir
              + " was already used by a run ("
              + writes
              + " committed writes in its journal): start from a fresh directory (remove it, or"
              + " point connect.directory elsewhere)");
    }
  }

  private static CommandRunner commands(JsonObject commands, CommandSandbox sandbox) {
    CommandRunner.Builder b = CommandRunner.builder().sandbox(sandbox);
    for (Map.Entry<String, JsonValue> e : commands.members().entrySet()) {
      String where = "task.environment.commands." + e.getKey();
      if (!(e.getValue() instanceof JsonArray argv) || argv.size() == 0) {
        throw RatchetException.contract(where + ": must be a non-empty array of strings (argv)");
      }
      List<String> args = new ArrayList<>();
      for (JsonValue v : argv.items()) {
        if (!(v instanceof JsonString s)) {
          throw RatchetException.contract(where + ": must be a non-empty array of strings (argv)");
        }
        args.add(s.value());
      }
      b.allow(e.getKey(), args);
    }
    return b.build();
  }
}
