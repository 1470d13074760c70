package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-task validation (issue "Security II", part 5): a task the adapter could never run as
 * written — a target outside its path rules, a permission it does not know, a file outside the
 * targets, a plan step off the allowlists or over the budget — is refused by {@code run} with exit
 * 2 and a message naming the field and the rule, before anything exists: no store, no workspace
 * (with its control directory), no file in the home.
 */
class WholeTaskValidationTest {
  @TempDir static Path dir;
  private static ProcessCli cli;
  private static JsonObject good;

  @BeforeAll
  static void keysButNoStore() throws IOException {
    cli = new ProcessCli(Files.createDirectories(dir.resolve("fresh"))).keys();
    good = (JsonObject) Json.parse(Files.readString(cli.exampleTask("good", null)));
  }

  /** Bad tasks by the text the error must name (field and rule). */
  private static Map<String, String> badTasks() {
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put(
        "task.targets: '../app.py': must be canonical",
        task(t -> t.with("targets", add(t, "targets", "../app.py"))));
    bad.put(
        "task.targets: 'folder//app.py': must be canonical",
        task(t -> t.with("targets", add(t, "targets", "folder//app.py"))));
    bad.put(
        "task.targets: '/etc/passwd': must be relative",
        task(t -> t.with("targets", add(t, "targets", "/etc/passwd"))));
    bad.put(
        "task.permissions: 'host.admin' is not a permission of adapter 'workspace'",
        task(t -> t.with("permissions", add(t, "permissions", "host.admin"))));
    bad.put(
        "task.environment.files.secret.txt: is not in task.targets",
        task(t -> t.with("environment", environment(t, "files", "secret.txt"))));
    bad.put(
        "task.verifier.expected_files.other.py: is not in task.targets",
        task(t -> t.with("verifier", files(t, "verifier", "expected_files", "other.py"))));
    bad.put(
        "plan[0].arguments: target 'notes.txt' is not in task.targets",
        plan(p -> set(p, 0, withArg(p, 0, "path", "notes.txt"))));
    bad.put(
        "plan[3].arguments.command: 'deploy' is not in task.environment.commands",
        both(
            t -> t.with("targets", add(t, "targets", "deploy")),
            p -> set(p, 3, withArg(p, 3, "command", "deploy"))));
    bad.put(
        "plan[4].kind: 'run_tests' needs permission 'tests.run'",
        task(t -> t.with("permissions", without(t, "permissions", "tests.run"))));
    bad.put(
        "plan: 6 steps exceed task.budgets.max_steps (3)",
        task(t -> t.with("budgets", budgets(t).with("max_steps", new JsonInt(3)))));
    return bad;
  }

  @Test
  void everyWholeTaskRuleIsExitTwoNamingTheFieldAndNothingIsCreated() throws IOException {
    List<String> homeBefore = listing(cli.home());
    List<String> failures = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, String> bad : badTasks().entrySet()) {
      Path workspace = cli.cwd.resolve("ws-bad-" + i);
      Path f = cli.cwd.resolve("bad-" + i++ + ".json");
      JsonObject json = (JsonObject) Json.parse(bad.getValue());
      json =
          json.with("connect", JsonObject.builder().put("directory", workspace.toString()).build());
      Files.writeString(f, Canonical.string(json));
      ProcessCli.Result r = cli.run("run", f.toString());
      if (r.exit() != 2 || !r.err().contains(bad.getKey()) || !r.err().contains(f.toString())) {
        failures.add(bad.getKey() + " -> exit " + r.exit() + ": " + r.err());
      }
      if (Files.exists(workspace)) {
        failures.add(bad.getKey() + ": created the workspace " + workspace);
      }
    }
    assertThat(failures).isEmpty();
    assertThat(cli.store()).doesNotExist();
    assertThat(listing(cli.home())).isEqualTo(homeBefore);
    // The good task still runs (the rules refuse nothing the example needs).
    assertThat(cli.run("run", cli.exampleTask("ok", null).toString()).exit()).isZero();
  }

  @Test
  void anExistingRunIdIsRefusedBeforeTheWorkspaceIsPrepared() throws IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("existing"))).keys();
    assertThat(c.run("run", c.exampleTask("first", null).toString(), "--run-id", "r1").exit())
        .isZero();
    String before = StoreDump.of(c.store());
    List<String> homeBefore = listing(c.home());
    Path second = c.exampleTask("second", null);
    ProcessCli.Result r = c.run("run", second.toString(), "--run-id", "r1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--run-id: run 'r1' already exists");
    assertThat(c.cwd.resolve("ws-second")).doesNotExist();
    assertThat(StoreDump.of(c.store())).isEqualTo(before);
    assertThat(listing(c.home())).isEqualTo(homeBefore);
  }

  private static List<String> listing(Path root) throws IOException {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  private static JsonObject taskOf(JsonObject json) {
    return (JsonObject) json.get("task").orElseThrow();
  }

  private static String task(UnaryOperator<JsonObject> change) {
    return Canonical.string(good.with("task", change.apply(taskOf(good))));
  }

  private static String plan(UnaryOperator<List<JsonValue>> change) {
    return Canonical.string(changePlan(good, change));
  }

  private static String both(UnaryOperator<JsonObject> t, UnaryOperator<List<JsonValue>> p) {
    return Canonical.string(changePlan(good.with("task", t.apply(taskOf(good))), p));
  }

  private static JsonObject changePlan(JsonObject json, UnaryOperator<List<JsonValue>> change) {
    List<JsonValue> steps = new ArrayList<>(((JsonArray) json.get("plan").orElseThrow()).items());
    return json.with("plan", new JsonArray(change.apply(steps)));
  }

  private static JsonArray add(JsonObject t, String field, String value) {
    List<JsonValue> items = new ArrayList<>(((JsonArray) t.get(field).orElseThrow()).items());
    items.add(new JsonString(value));
    return new JsonArray(items);
  }

  private static JsonArray without(JsonObject t, String field, String value) {
    List<JsonValue> items = new ArrayList<>(((JsonArray) t.get(field).orElseThrow()).items());
    items.remove(new JsonString(value));
    return new JsonArray(items);
  }

  private static JsonObject budgets(JsonObject t) {
    return (JsonObject) t.get("budgets").orElseThrow();
  }

  private static JsonObject environment(JsonObject t, String member, String path) {
    return files(t, "environment", member, path);
  }

  private static JsonObject files(JsonObject t, String field, String member, String path) {
    JsonObject outer = (JsonObject) t.get(field).orElseThrow();
    JsonObject inner = (JsonObject) outer.get(member).orElseThrow();
    return outer.with(member, inner.with(path, new JsonString("x")));
  }

  private static JsonObject withArg(List<JsonValue> p, int i, String name, String value) {
    JsonObject step = (JsonObject) p.get(i);
    JsonObject args = (JsonObject) step.get("arguments").orElseThrow();
    return step.with("arguments", args.with(name, new JsonString(value)));
  }

  private static List<JsonValue> set(List<JsonValue> p, int i, JsonValue v) {
    p.set(i, v);
    return p;
  }
}
