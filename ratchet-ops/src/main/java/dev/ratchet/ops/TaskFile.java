package dev.ratchet.ops;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.TaskRules;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.ops.internal.PlanStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A task file (docs/task-format.md): strict JSON with exactly {@code format}, {@code task} (a
 * {@link TaskSpec}), {@code connect} (where the adapter finds its environment) and {@code plan}.
 * Every problem is a {@code CONTRACT} error whose message starts with the file and the field. The
 * plan's kinds and arguments are checked against the adapter's own action specs on load, before any
 * environment is prepared or store opened, and again ({@link #checkAgainst}) by the opened adapter.
 *
 * @param source where the file came from, for messages
 */
public record TaskFile(TaskSpec task, JsonObject connect, List<PlanStep> plan, String source) {
  public static final String FORMAT = "ratchet-task/1";
  private static final Pattern STEP_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  public TaskFile {
    plan = List.copyOf(plan);
  }

  /**
   * Checks the plan against the adapter's action kinds: every kind exists, approvals gate writes
   * only (the command line approves pending writes), and every step's arguments are valid.
   */
  public void checkAgainst(List<ActionSpec> offered) {
    try {
      checkStrict(offered, null);
    } catch (RatchetException | IllegalArgumentException e) {
      throw RatchetException.contract(source + ": " + e.getMessage());
    }
  }

  private void checkStrict(List<ActionSpec> offered, AdapterProvider provider) {
    Map<String, ActionSpec> specs = new HashMap<>();
    for (ActionSpec s : offered) {
      specs.put(s.kind(), s);
    }
    for (String kind : task.actionKinds()) {
      if (!specs.containsKey(kind) && !TaskSpec.CONTROL_KINDS.contains(kind)) {
        throw RatchetException.contract(
            "task.action_kinds: adapter '" + task.adapter() + "' offers no kind '" + kind + "'");
      }
    }
    for (String kind : task.approvalRequired()) {
      ActionSpec spec = specs.get(kind);
      if (spec == null || spec.actionClass() != ActionClass.WRITE) {
        throw RatchetException.contract(
            "task.approval_required: '"
                + kind
                + "' is not a write; the command line approves pending writes only");
      }
    }
    for (int i = 0; i < plan.size(); i++) {
      PlanStep step = plan.get(i);
      if (!TaskSpec.CONTROL_KINDS.contains(step.kind())) {
        specs.get(step.kind()).validateArguments(step.arguments(), "plan[" + i + "].arguments");
      }
    }
    // D31: the library's whole-task rules, the adapter provider's included.
    TaskRules.check(task, outline(plan), offered, provider);
  }

  private static List<TaskOutline.Step> outline(List<PlanStep> plan) {
    return plan.stream().map(p -> new TaskOutline.Step(p.kind(), p.arguments())).toList();
  }

  /** Reads and validates a task file given on the command line. */
  public static TaskFile load(Path file, AdapterRegistry adapters) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw RatchetException.contract("task file " + file + ": not found");
    } catch (IOException e) {
      throw RatchetException.contract(
          "task file " + file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    Path base = file.toAbsolutePath().normalize().getParent();
    return parse(bytes, base, adapters, "task file " + file);
  }

  /** Parses task-file bytes; relative connect paths resolve against {@code baseDir}. */
  public static TaskFile parse(byte[] bytes, Path baseDir, AdapterRegistry adapters, String where) {
    try {
      return parseStrict(bytes, baseDir, adapters, where);
    } catch (RatchetException e) {
      throw RatchetException.contract(where + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw RatchetException.contract(where + ": " + e.getMessage());
    }
  }

  private static TaskFile parseStrict(
      byte[] bytes, Path baseDir, AdapterRegistry adapters, String where) {
    JsonValue root = Json.parse(bytes, JsonLimits.DEFAULT);
    Fields f = Fields.exact(root, "", "format", "task", "connect", "plan");
    String format = f.text("format");
    if (!FORMAT.equals(format)) {
      throw RatchetException.contract(
          "format: '" + format + "' is not supported (this version reads '" + FORMAT + "')");
    }
    TaskSpec task = TaskSpec.fromJson(f.raw("task"), "task");
    AdapterProvider provider = adapters.get("task.adapter", task.adapter());
    JsonObject connect = provider.resolveConnect(f.obj("connect"), baseDir, "connect");
    List<PlanStep> plan = plan(f.array("plan"), task);
    TaskFile tf = new TaskFile(task, connect, plan, where);
    tf.checkStrict(provider.actionSpecs(task.environment(), adapters.context()), provider);
    return tf;
  }

  private static List<PlanStep> plan(JsonArray steps, TaskSpec task) {
    if (steps.size() == 0) {
      throw RatchetException.contract("plan: must not be empty");
    }
    List<PlanStep> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) {
      String p = "plan[" + i + "]";
      Fields s = Fields.exact(steps.get(i), p, "id", "kind", "arguments");
      String id = s.text("id");
      if (!STEP_ID.matcher(id).matches()) {
        throw RatchetException.contract(
            p + ".id: '" + id + "' must be 1-64 letters, digits, '.', '_' or '-'");
      }
      if (!ids.add(id)) {
        throw RatchetException.contract(p + ".id: duplicate step id '" + id + "'");
      }
      String kind = s.text("kind");
      JsonObject args = s.obj("arguments");
      boolean control = TaskSpec.CONTROL_KINDS.contains(kind);
      if (!control && !task.actionKinds().contains(kind)) {
        throw RatchetException.contract(
            p + ".kind: '" + kind + "' is not in task.action_kinds " + task.actionKinds());
      }
      if ("finish".equals(kind)) {
        Fields.exact(args, p + ".arguments");
      } else if ("cancel".equals(kind)) {
        Fields.exact(args, p + ".arguments", "reason").text("reason");
      }
      boolean last = i == steps.size() - 1;
      if (control != last) {
        throw RatchetException.contract(
            p
                + ".kind: "
                + (last
                    ? "the last step must be finish or cancel"
                    : "'" + kind + "' ends the run, so it must be the last step"));
      }
      out.add(new PlanStep(id, kind, args));
    }
    return out;
  }

  /** The canonical JSON of the task file (connect resolved): what {@code run} records. */
  public JsonObject toJson() {
    List<JsonValue> steps = new ArrayList<>();
    for (PlanStep s : plan) {
      steps.add(
          JsonObject.builder()
              .put("id", s.id())
              .put("kind", s.kind())
              .put("arguments", s.arguments())
              .build());
    }
    return JsonObject.builder()
        .put("format", FORMAT)
        .put("task", task.toJson())
        .put("connect", connect)
        .put("plan", new JsonArray(steps))
        .build();
  }

  /** SHA-256 of {@link #toJson()}: the name the recorded copy is stored under. */
  public String sha256() {
    return Canonical.sha256Hex(toJson());
  }
}
