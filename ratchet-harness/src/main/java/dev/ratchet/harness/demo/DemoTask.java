package dev.ratchet.harness.demo;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.TaskSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The demo's task file read back in its published format ({@code ratchet-task/1}: {@code task},
 * {@code connect}, {@code plan}; docs/cli.md), and its adapter opened through the adapter plug-ins
 * ({@link AdapterProvider}, found by {@link ServiceLoader}) as any embedding application would.
 */
record DemoTask(TaskSpec task, JsonObject connect, List<Step> plan) {
  /** One plan step: its id, action kind and arguments. */
  record Step(String id, String kind, JsonObject arguments) {
    String actionId(long proposalNumber) {
      return id + "#" + proposalNumber;
    }
  }

  static DemoTask read(Path file) {
    try {
      Fields f =
          Fields.exact(Json.parse(Files.readString(file)), "", "format", "task", "connect", "plan");
      if (!DemoScenario.FORMAT.equals(f.text("format"))) {
        throw RatchetException.contract("format: not " + DemoScenario.FORMAT);
      }
      List<Step> plan = new ArrayList<>();
      for (JsonValue v : f.array("plan").items()) {
        Fields s = Fields.exact(v, "plan[]", "id", "kind", "arguments");
        plan.add(new Step(s.text("id"), s.text("kind"), s.obj("arguments")));
      }
      return new DemoTask(TaskSpec.fromJson(f.raw("task"), "task"), f.obj("connect"), plan);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, file + ": cannot be read: " + e.getMessage());
    }
  }

  /** The task's adapter, from the provider of its namespace. */
  EnvironmentAdapter adapter(boolean prepare, AdapterProvider.Context context) {
    for (AdapterProvider p : ServiceLoader.load(AdapterProvider.class)) {
      if (p.namespace().equals(task.adapter())) {
        return p.open(task.environment(), connect, prepare, context);
      }
    }
    throw RatchetException.contract("no adapter provider for '" + task.adapter() + "'");
  }
}
