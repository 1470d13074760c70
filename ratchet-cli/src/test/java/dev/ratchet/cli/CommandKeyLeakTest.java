package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapters.CommandSandbox;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.testkit.LeakScan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D27, the key-leak scan: a workspace task whose commands print the worker's environment and
 * {@code cat} every key file under the Ratchet home runs through {@code ratchet run} (a child
 * process, the real workspace adapter, the SQLite store); then the store files, every file under
 * the home and the workspace's control directory, and every stdout and stderr of the command line
 * are scanned for every key and for a secret planted in the worker's environment, in every
 * encoding. The canary — sandbox opted out and redaction off — must find the leak, so the scan can
 * fail.
 */
class CommandKeyLeakTest {
  private static final String ENV_SECRET_NAME = "RATCHET_REVIEWER_KEY";

  @TempDir Path dir;

  @Test
  void commandsInTheSandboxCannotReachKeysOrTheEnvironment() {
    Leak l = attempt(false, false);
    assertThat(l.scan.findings()).isEmpty();
    assertThat(l.scan.scanned()).isGreaterThan(5);
    // The commands did run, and were denied: the files do not exist in the sandbox.
    assertThat(l.traceText)
        .contains("No such file or directory")
        .contains("\"sandbox\":\"bubblewrap\"");
    assertThat(l.traceText).doesNotContain(ENV_SECRET_NAME);
  }

  @Test
  void withoutTheSandboxTheLoadedKeysAreRedactedAndTheRedactionTraced() {
    Leak l = attempt(true, false);
    assertThat(l.outcomes).contains("unsandboxed_command", "redacted");
    assertThat(l.traceText).contains("[redacted:ckpt-1]");
    LeakScan checkpointOnly =
        LeakScan.of(Map.of("ckpt-1", ProcessCli.material(l.cli.home().resolve("keys/ckpt-1.key"))));
    l.scanAll(checkpointOnly);
    assertThat(checkpointOnly.findings()).isEmpty();
    assertThat(l.stderr).contains(CommandSandbox.OPT_OUT_VARIABLE);
  }

  @Test
  void canaryWithoutSandboxAndRedactionTheScanFindsTheLeak() {
    Leak l = attempt(true, true);
    assertThat(l.outcomes).contains("unsandboxed_command").doesNotContain("redacted");
    assertThat(l.scan.findings())
        .anySatisfy(f -> assertThat(f).contains("keys/ckpt-1.key"))
        .anySatisfy(f -> assertThat(f).contains("identities/approver/alice.key"))
        .anySatisfy(f -> assertThat(f).contains(ENV_SECRET_NAME));
  }

  /** What one attempt left behind, already scanned for every secret. */
  private static final class Leak {
    final ProcessCli cli;
    final LeakScan scan;
    final String traceText;
    final List<String> outcomes = new ArrayList<>();
    final String stderr;
    final List<Path> files = new ArrayList<>();

    Leak(ProcessCli cli, LeakScan scan, String traceText, String stderr) {
      this.cli = cli;
      this.scan = scan;
      this.traceText = traceText;
      this.stderr = stderr;
    }

    void scanAll(LeakScan s) {
      int i = 0;
      for (String o : cli.outputs) {
        s.check("cli output " + i++, o);
      }
      for (Path f : files) {
        try {
          s.check(f.toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  private Leak attempt(boolean unsandboxed, boolean unredacted) {
    ProcessCli c = new ProcessCli(dir.resolve("cwd"));
    try {
      Files.createDirectories(c.cwd);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    c.keys();
    byte[] envSecret = new byte[32];
    new java.security.SecureRandom().nextBytes(envSecret);
    c.env.put(ENV_SECRET_NAME, "hex:" + HexFormat.of().formatHex(envSecret));
    c.env.put("RATCHET_REVIEWER_ID", "rita");
    if (unsandboxed) {
      c.env.put(CommandSandbox.OPT_OUT_VARIABLE, CommandSandbox.OPT_OUT_VALUE);
    }
    if (unredacted) {
      c.mainClass = "dev.ratchet.cli.UnredactedMain";
    }
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    List<String> keyFiles = new ArrayList<>();
    // The checkpoint key and the operators' own Ed25519 private keys (D19: identities/).
    for (String sub : List.of("keys", "identities/approver", "identities/reviewer")) {
      try (Stream<Path> s = Files.list(c.home().resolve(sub))) {
        for (Path f : s.filter(p -> p.toString().endsWith(".key")).sorted().toList()) {
          keyFiles.add(f.toString());
          secrets.put(f + " (file)", fileSecret(f));
          secrets.put(f + " (material)", ProcessCli.material(f));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(keyFiles).hasSize(3);
    secrets.put(ENV_SECRET_NAME, envSecret);

    Path task = task(c, keyFiles);
    ProcessCli.Result run = c.run("run", task.toString(), "--run-id", "leak");
    assertThat(run.all()).doesNotContain("Exception");
    String trace = c.run("trace", "leak", "--json").out();
    c.run("inspect", "leak", "--json");
    c.run("status", "--json");

    Leak l = new Leak(c, LeakScan.of(secrets), trace, run.err());
    JsonValue events = ((JsonObject) Json.parse(trace)).get("events").orElseThrow();
    for (JsonValue e : ((JsonArray) events).items()) {
      l.outcomes.add(((JsonString) ((JsonObject) e).get("outcome").orElseThrow()).value());
    }
    assertThat(l.outcomes).contains("executed");
    try (Stream<Path> s = Stream.concat(Files.walk(c.home()), Files.walk(c.cwd.resolve("ws")))) {
      s.filter(Files::isRegularFile)
          .filter(p -> !p.toString().endsWith(".key"))
          .filter(
              p -> !p.startsWith(c.cwd.resolve("ws")) || p.toString().contains(".ratchet-adapter"))
          .forEach(l.files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(l.files).anySatisfy(p -> assertThat(p.toString()).endsWith("ratchet.db"));
    l.scanAll(l.scan);
    return l;
  }

  /**
   * A key file's secret text: the whole file, or for a PEM private key its base64 body (the armour
   * lines are shared with the public key files and are no secret).
   */
  private static byte[] fileSecret(Path f) throws IOException {
    String t = Files.readString(f, StandardCharsets.ISO_8859_1);
    if (!t.startsWith("-----BEGIN")) {
      return t.getBytes(StandardCharsets.ISO_8859_1);
    }
    return t.replaceAll("-----[A-Z ]+-----", "").strip().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A workspace task whose commands print the environment and every key file. */
  private static Path task(ProcessCli c, List<String> keyFiles) {
    StringBuilder cat = new StringBuilder("[\"cat\"");
    for (String f : keyFiles) {
      cat.append(", \"").append(f).append('"');
    }
    cat.append(']');
    String text =
        """
        {
          "format": "ratchet-task/1",
          "task": {
            "schema_version": 1,
            "task_id": "leak",
            "task_version": "v1",
            "policy_id": "workspace-policy",
            "policy_version": "v1",
            "adapter": "workspace",
            "permissions": ["workspace.read", "workspace.write", "commands.run", "tests.run"],
            "action_kinds": ["read_file", "run_command", "run_tests"],
            "targets": ["app.py", "env", "keys", "expected-files"],
            "approval_required": [],
            "budgets": {"max_proposals": 50, "max_steps": 20, "max_wall_time_ms": 86400000, "max_cost": 0},
            "environment": {
              "files": {"app.py": "print('hello')\\n"},
              "commands": {"env": ["printenv"], "keys": %s}
            },
            "verifier": {"expected_files": {"app.py": "print('hello')\\n"}}
          },
          "connect": {"directory": "%s"},
          "plan": [
            {"id": "env", "kind": "run_command", "arguments": {"command": "env"}},
            {"id": "keys", "kind": "run_command", "arguments": {"command": "keys"}},
            {"id": "expected", "kind": "run_tests", "arguments": {"target": "expected-files"}},
            {"id": "done", "kind": "finish", "arguments": {}}
          ]
        }
        """
            .formatted(cat, c.cwd.resolve("ws"));
    Path f = c.cwd.resolve("leak.json");
    try {
      Files.writeString(f, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return f;
  }
}
