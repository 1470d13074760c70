package dev.ratchet.cli;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.AdapterRegistry;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Stores;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.ForwardingLeaseStore;
import dev.ratchet.testkit.InMemoryStore;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line in-process on the testkit's in-memory store and workspace: fast tests of the
 * command logic. The durable behaviour is tested on SQLite files in child processes.
 */
final class MemoryHarness {
  final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  final InMemoryStore store = new InMemoryStore(clock);
  final InMemoryWorkspace workspace =
      new InMemoryWorkspace("ws-test", clock, Map.of("app.py", RuntimeFixture.BROKEN));
  final Path home;
  final Services services;

  /** The output of one command. */
  record Result(int exit, String out, String err) {}

  MemoryHarness(Path dir, long seed) {
    this.home = dir.resolve("home");
    AdapterProvider provider =
        new AdapterProvider() {
          @Override
          public String namespace() {
            return InMemoryWorkspace.NAMESPACE;
          }

          @Override
          public List<dev.ratchet.adapter.ActionSpec> actionSpecs(
              JsonObject environment, AdapterProvider.Context context) {
            return workspace.actionSpecs();
          }

          @Override
          public JsonObject resolveConnect(JsonObject connect, Path baseDir, String path) {
            Fields.exact(connect, path);
            return connect;
          }

          @Override
          public EnvironmentAdapter open(
              JsonObject environment,
              JsonObject connect,
              boolean prepare,
              AdapterProvider.Context context) {
            return workspace;
          }
        };
    this.services =
        new Services(
            (content, mark, mode, c, seam, runs) -> new Stores(store, store, () -> {}),
            new AdapterRegistry(
                List.of(provider),
                new AdapterProvider.Context(clock, new SeededEntropy(seed), CrashSeam.NONE)),
            clock,
            new SeededEntropy(seed));
  }

  Result run(String... args) {
    return run(services, args);
  }

  /**
   * A command on the same store seen without its scheduling side: what it commits is committed, and
   * nothing is scheduled (a fork's crash window between its commit and its scheduling).
   */
  Result runWithoutScheduling(String... args) {
    Services unscheduled =
        new Services(
            (content, mark, mode, c, seam, runs) ->
                new Stores(store, new ForwardingLeaseStore(store) {}, () -> {}),
            services.adapters(),
            clock,
            services.entropy());
    return run(unscheduled, args);
  }

  private Result run(Services services, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.execute(
            all.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            services);
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Writes a task file for the in-memory workspace with the given approval policy and plan. */
  Path taskFile(String name, String approvalRequired, String plan) {
    String text =
        """
        {
          "format": "ratchet-task/1",
          "task": {
            "schema_version": 1,
            "task_id": "repair-greeting",
            "task_version": "v1",
            "policy_id": "environment-policy",
            "policy_version": "v1",
            "adapter": "memory-workspace",
            "permissions": ["workspace.read", "workspace.write", "tests.run"],
            "action_kinds": ["read_file", "write_file", "append_file", "run_tests"],
            "targets": ["app.py", "log.txt", "unit"],
            "approval_required": [%s],
            "budgets": {"max_proposals": 100, "max_steps": 50, "max_wall_time_ms": 86400000, "max_cost": 0},
            "environment": {"files": {"app.py": "print('hello'\\n"}},
            "verifier": {"expected_files": {"app.py": "print('ready')\\n"}}
          },
          "connect": {},
          "plan": %s
        }
        """
            .formatted(approvalRequired, plan);
    Path f = home.getParent().resolve(name);
    try {
      Files.writeString(f, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return f;
  }

  static final String PLAN =
      """
      [
        {"id": "fix", "kind": "write_file", "arguments": {"path": "app.py", "content": "print('ready')\\n"}},
        {"id": "log", "kind": "append_file", "arguments": {"path": "log.txt", "content": "fixed\\n"}},
        {"id": "test", "kind": "run_tests", "arguments": {"target": "unit"}},
        {"id": "done", "kind": "finish", "arguments": {}}
      ]
      """;

  /**
   * {@code keys generate --role ROLE --name NAME} then {@code keys trust --role ROLE} of its public
   * key in this home; returns the private key file (what {@code --key} takes).
   */
  String person(String role, String name) {
    Result g = run("keys", "generate", "--role", role, "--name", name);
    if (g.exit() != 0) {
      throw new IllegalStateException(g.err());
    }
    Path dir = home.resolve("identities").resolve(role);
    Result t = run("keys", "trust", "--role", role, dir.resolve(name + ".pub").toString());
    if (t.exit() != 0) {
      throw new IllegalStateException(t.err());
    }
    return dir.resolve(name + ".key").toString();
  }
}
