package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonDecimal;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bad task file is refused with exit 2 and a message naming the field, and the store
 * is left exactly as it was (or, when there is none, not created).
 */
class BadTaskFileTest {
  @TempDir static Path dir;
  private static ProcessCli cli;
  private static JsonObject good;

  @BeforeAll
  static void aStoreWithOneRun() throws IOException {
    cli = new ProcessCli(Files.createDirectories(dir.resolve("work"))).keys();
    Path task = cli.exampleTask("good", null);
    good = (JsonObject) Json.parse(Files.readString(task));
    assertThat(cli.run("run", task.toString(), "--run-id", "r1").exit()).isZero();
  }

  /** Bad files by the text the error must name. */
  private static Map<String, String> badFiles() {
    Map<String, String> bad = new LinkedHashMap<>();
    String text = Canonical.string(good);
    bad.put("$", text.substring(0, text.length() / 2));
    bad.put("duplicate", "{\"format\":\"ratchet-task/1\"," + text.substring(1));
    bad.put("unknown fields [extra]", Canonical.string(good.with("extra", new JsonString("x"))));
    bad.put("format", Canonical.string(good.with("format", new JsonString("ratchet-task/2"))));
    bad.put(
        "task.budgets: missing fields [max_cost]",
        task(t -> t.with("budgets", budgets().without("max_cost"))));
    bad.put(
        "task.budgets.max_steps: must be an integer",
        task(t -> t.with("budgets", budgets().with("max_steps", new JsonString("10")))));
    bad.put(
        "task.budgets.max_steps",
        task(t -> t.with("budgets", budgets().with("max_steps", new JsonDecimal(10.5)))));
    bad.put(
        "budgets.max_proposals: must be at least budgets.max_steps",
        task(
            t ->
                t.with(
                    "budgets", budgets().with("max_proposals", new dev.ratchet.json.JsonInt(5)))));
    bad.put("task.task_id", task(t -> t.with("task_id", new JsonString(" "))));
    bad.put("task.adapter", task(t -> t.with("adapter", new JsonString("ftp"))));
    bad.put(
        "task.approval_required",
        task(t -> t.with("approval_required", JsonArray.of(new JsonString("read_file")))));
    bad.put(
        "connect: missing fields [directory]",
        Canonical.string(good.with("connect", JsonObject.EMPTY)));
    bad.put("plan: must not be empty", Canonical.string(good.with("plan", JsonArray.EMPTY)));
    bad.put(
        "plan[1].kind",
        plan(p -> set(p, 1, step(p, 1).with("kind", new JsonString("delete_file")))));
    bad.put(
        "plan[1].arguments.path",
        plan(
            p ->
                set(
                    p,
                    1,
                    step(p, 1)
                        .with(
                            "arguments",
                            args(p, 1).with("path", new JsonString("../escape.py"))))));
    bad.put(
        "plan[1].arguments: unknown fields [mode]",
        plan(
            p ->
                set(
                    p,
                    1,
                    step(p, 1)
                        .with("arguments", args(p, 1).with("mode", new JsonString("0777"))))));
    bad.put(
        "plan[2].id: duplicate step id",
        plan(p -> set(p, 2, step(p, 2).with("id", new JsonString("fix-app")))));
    bad.put("plan[4].kind: the last step must be finish or cancel", plan(p -> p.subList(0, 5)));
    bad.put("plan[0].kind: 'finish' ends the run", plan(p -> set(p, 0, step(p, 5))));
    return bad;
  }

  @Test
  void everyKindOfBadTaskFileIsExitTwoNamingTheFieldAndTheStoreIsUnchanged() throws IOException {
    String before = StoreDump.of(cli.store());
    List<String> failures = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, String> bad : badFiles().entrySet()) {
      Path f = cli.cwd.resolve("bad-" + i++ + ".json");
      Files.writeString(f, bad.getValue());
      ProcessCli.Result r = cli.run("run", f.toString(), "--run-id", "bad" + i);
      if (r.exit() != 2 || !r.err().contains(bad.getKey()) || !r.err().contains(f.toString())) {
        failures.add(bad.getKey() + " -> exit " + r.exit() + ": " + r.err());
      }
      if (!r.err().contains("what to do:")) {
        failures.add(bad.getKey() + ": no advice in " + r.err());
      }
    }
    ProcessCli.Result missing = cli.run("run", "no-such-file.json");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("no-such-file.json: not found");
    assertThat(failures).isEmpty();
    assertThat(StoreDump.of(cli.store())).isEqualTo(before);
    assertThat(cli.run("status").out()).contains("r1").doesNotContain("bad");
  }

  @Test
  void aBadTaskFileCreatesNoStore() throws IOException {
    ProcessCli fresh = new ProcessCli(Files.createDirectories(dir.resolve("fresh"))).keys();
    Path f = fresh.cwd.resolve("bad.json");
    Files.writeString(f, Canonical.string(good.with("plan", JsonArray.EMPTY)));
    assertThat(fresh.run("run", f.toString()).exit()).isEqualTo(2);
    assertThat(fresh.store()).doesNotExist();
    // A good task file without any checkpoint key: refused before a store or workspace exists.
    ProcessCli keyless = new ProcessCli(Files.createDirectories(dir.resolve("keyless")));
    ProcessCli.Result r = keyless.run("run", keyless.exampleTask("k", null).toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("no checkpoint key").contains("ratchet keys generate");
    assertThat(keyless.store()).doesNotExist();
    assertThat(keyless.cwd.resolve("ws-k")).doesNotExist();
  }

  private static JsonObject budgets() {
    return (JsonObject) ((JsonObject) good.get("task").orElseThrow()).get("budgets").orElseThrow();
  }

  private static String task(UnaryOperator<JsonObject> change) {
    return Canonical.string(
        good.with("task", change.apply((JsonObject) good.get("task").orElseThrow())));
  }

  private static String plan(UnaryOperator<List<JsonValue>> change) {
    List<JsonValue> steps = new ArrayList<>(((JsonArray) good.get("plan").orElseThrow()).items());
    return Canonical.string(good.with("plan", new JsonArray(change.apply(steps))));
  }

  private static JsonObject step(List<JsonValue> p, int i) {
    return (JsonObject) p.get(i);
  }

  private static JsonObject args(List<JsonValue> p, int i) {
    return (JsonObject) step(p, i).get("arguments").orElseThrow();
  }

  private static List<JsonValue> set(List<JsonValue> p, int i, JsonValue v) {
    p.set(i, v);
    return p;
  }
}
