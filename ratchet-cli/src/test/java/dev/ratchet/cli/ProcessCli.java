package dev.ratchet.cli;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ratchet} as a child process — {@code java -cp <this test class path>
 * dev.ratchet.cli.Main …}, the same code the shaded jar holds — in a working directory of its own,
 * on real SQLite files. Every output is kept for the key-leak scan.
 */
final class ProcessCli {
  /** One finished command. */
  record Result(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  final Path cwd;
  final Map<String, String> env = new LinkedHashMap<>();
  final List<String> outputs = new ArrayList<>();

  /** Extra JVM options of each child (e.g. its java.io.tmpdir). */
  final List<String> jvmArgs = new ArrayList<>();

  String mainClass = "dev.ratchet.cli.Main";

  /**
   * The harness's worker that crashes or pauses at a point (ADR 0110: no such option on 'worker').
   */
  static final String CRASHING_WORKER = "dev.ratchet.harness.crash.CrashingWorkerMain";

  /** The harness's MCP server with a crash point and a short lease (none of them on 'mcp'). */
  static final String CRASHING_MCP = "dev.ratchet.harness.crash.CrashingMcpMain";

  ProcessCli(Path cwd) {
    this.cwd = cwd;
  }

  /** A long-lived child (e.g. {@code ratchet worker}); its stdout and stderr go to these files. */
  record Started(Process process, Path out, Path err) {
    String stdout() throws IOException {
      return Files.readString(out, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
      return Files.readString(err, StandardCharsets.UTF_8);
    }
  }

  Started start(String... args) throws IOException {
    return startMain(mainClass, args);
  }

  /** A long-lived child running {@code main} (a harness entry point) on the same class path. */
  Started startMain(String main, String... args) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command(main, args)).directory(cwd.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_"));
    pb.environment().putAll(env);
    Path out = Files.createTempFile(cwd.getParent(), "out-", ".txt");
    Path err = Files.createTempFile(cwd.getParent(), "err-", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    return new Started(pb.start(), out, err);
  }

  private List<String> command(String main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Xshare:auto");
    // The test class path carries slf4j-api (from ArchUnit) without a provider; the jar does not.
    cmd.add("-Dslf4j.internal.verbosity=ERROR");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main);
    cmd.addAll(List.of(args));
    return cmd;
  }

  Result run(String... args) {
    return runMain(mainClass, args);
  }

  /** A finished child running {@code main} (a harness entry point) on the same class path. */
  Result runMain(String main, String... args) {
    ProcessBuilder pb = new ProcessBuilder(command(main, args)).directory(cwd.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_"));
    pb.environment().putAll(env);
    try {
      Path out = Files.createTempFile(cwd.getParent(), "out-", ".txt");
      Path err = Files.createTempFile(cwd.getParent(), "err-", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("ratchet " + String.join(" ", args) + " hung");
      }
      Result r =
          new Result(
              p.exitValue(),
              Files.readString(out, StandardCharsets.UTF_8),
              Files.readString(err, StandardCharsets.UTF_8));
      outputs.add(r.out());
      outputs.add(r.err());
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Checkpoint key {@code ckpt-1} (active), approver {@code alice} and reviewer {@code rita} (their
   * Ed25519 keys in {@code identities/}, public keys trusted), made by the same code as {@code
   * ratchet keys generate} and {@code keys trust} without starting a JVM for each.
   */
  ProcessCli keys() {
    dev.ratchet.seam.Entropy entropy = dev.ratchet.seam.Seams.secureEntropy();
    dev.ratchet.ops.KeyFiles.create(home().resolve("keys/ckpt-1.key"), entropy);
    dev.ratchet.ops.KeyFiles.activate(home().resolve("keys"), "ckpt-1");
    for (String role : List.of("approver", "reviewer")) {
      String name = role.equals("approver") ? "alice" : "rita";
      Path priv = home().resolve("identities/" + role + "/" + name + ".key");
      dev.ratchet.ops.KeyConfig.install(
          home().resolve(role + "s"),
          dev.ratchet.ops.KeyConfig.createIdentity(priv, name, entropy).trusted());
    }
    return this;
  }

  /** Operator {@code name}'s Ed25519 key pair, its public key trusted; returns the private key. */
  Path operator(String name) {
    Path priv = home().resolve("identities/operator/" + name + ".key");
    dev.ratchet.ops.KeyConfig.install(
        home().resolve("operators"),
        dev.ratchet.ops.KeyConfig.createIdentity(priv, name, dev.ratchet.seam.Seams.secureEntropy())
            .trusted());
    return priv;
  }

  Path home() {
    return cwd.resolve(".ratchet");
  }

  Path store() {
    return home().resolve("ratchet.db");
  }

  /** The example task with its workspace moved into this test's directory. */
  Path exampleTask(String name, String approvalRequired) {
    try {
      String text = Files.readString(Path.of("../examples/workspace/repair-greeting.json"));
      JsonObject json = (JsonObject) Json.parse(text);
      JsonObject task = (JsonObject) json.get("task").orElseThrow();
      task =
          task.with(
              "approval_required",
              approvalRequired == null
                  ? dev.ratchet.json.JsonArray.EMPTY
                  : dev.ratchet.json.JsonArray.of(new JsonString(approvalRequired)));
      json =
          json.with("task", task)
              .with(
                  "connect",
                  JsonObject.builder()
                      .put("directory", cwd.resolve("ws-" + name).toString())
                      .build());
      Path f = cwd.resolve(name + ".json");
      Files.writeString(f, Canonical.string(json));
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The raw key material of a key file, for the leak scan: a checkpoint key's bytes, or an Ed25519
   * private key's 32-byte seed (the last 32 bytes of its PKCS#8 encoding).
   */
  static byte[] material(Path keyFile) {
    try {
      String t = Files.readString(keyFile).strip();
      if (t.startsWith("-----BEGIN PRIVATE KEY-----")) {
        String body =
            t.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "");
        byte[] der = Base64.getMimeDecoder().decode(body);
        return java.util.Arrays.copyOfRange(der, der.length - 32, der.length);
      }
      return t.startsWith("hex:")
          ? HexFormat.of().parseHex(t.substring(4))
          : Base64.getDecoder().decode(t.substring(7));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
