package dev.ratchet.console;

import dev.ratchet.cli.Main;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Settings;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The console on a real SQLite store, beside real {@code ratchet worker} processes: the HTTP
 * example's order run {@link #RUN} is submitted (signed by operator olga) against the reference
 * ledger service; a worker process ({@link #startWorker}) claims it and drives it until it waits
 * for approval of {@code pay_order}. The console holds no private key: approvers sign in their
 * browsers ({@link #aliceKeyFile} is what alice would import).
 */
final class SqliteConsole implements AutoCloseable {
  static final String RUN = "o1";
  static final String TASK = "acme-restock";

  final Path cwd;
  final Path home;
  final Services services = Services.standard();
  final ReferenceService ledger;
  final ConsoleLauncher.Request config;
  final ConsoleServer server;

  /** Alice's own PKCS#8 key file, as 'ratchet keys generate' wrote it. */
  final Path aliceKeyFile;

  private Process worker;
  private Path workerErr;

  SqliteConsole(Path dir) {
    try {
      this.cwd = Files.createDirectories(dir.resolve("sqlite"));
      this.home = cwd.resolve(".ratchet");
      this.ledger = ReferenceService.start(cwd.resolve("ledger.db"), 0);
      Entropy entropy = Seams.secureEntropy();
      KeyFiles.create(home.resolve("keys/ckpt-1.key"), entropy);
      KeyFiles.activate(home.resolve("keys"), "ckpt-1");
      Path alice = home.resolve("identities/approver/alice.key");
      this.aliceKeyFile = alice;
      KeyConfig.install(
          home.resolve("approvers"), KeyConfig.createIdentity(alice, "alice", entropy).trusted());
      Path olga = home.resolve("identities/operator/olga.key");
      KeyConfig.install(
          home.resolve("operators"), KeyConfig.createIdentity(olga, "olga", entropy).trusted());
      String out =
          cli("submit", ordersTask().toString(), "--run-id", RUN, "--operator-key", "" + olga);
      if (!out.contains("submitted by olga")) {
        throw new IllegalStateException("submit failed: " + out);
      }
      Settings settings = new Settings(home, null, null, List.of(), null, null, null);
      this.config =
          new ConsoleLauncher.Request(
              services,
              settings,
              new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
              null,
              ConsoleLauncher.Request.DEFAULT_SESSION_TTL,
              ConsoleLauncher.Request.DEFAULT_PREVIEW_TTL,
              new PrintWriter(new StringWriter()));
      this.server = ConsoleServer.start(config, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code ratchet worker} as a child JVM on this store (the test's class path). */
  void startWorker() throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Dslf4j.internal.verbosity=ERROR");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "worker", "--home", home.toString(), "--worker-id", "w-console", "--poll", "100ms"));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_"));
    workerErr = cwd.resolve("worker.err");
    pb.redirectOutput(cwd.resolve("worker.out").toFile()).redirectError(workerErr.toFile());
    worker = pb.start();
  }

  /** Waits (bounded) until the worker's log line says {@code text}. */
  void awaitWorker(String text) throws IOException, InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < until) {
      String log = Files.readString(workerErr, StandardCharsets.UTF_8);
      if (log.contains(text)) {
        return;
      }
      if (!worker.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "the worker never said '" + text + "':\n" + Files.readString(workerErr));
  }

  /** The idempotency key of {@link #RUN}'s pending write (as {@code inspect --json} shows it). */
  String pendingKey() {
    JsonObject view = (JsonObject) Json.parse(cli("inspect", RUN, "--json"));
    JsonObject pending = (JsonObject) view.get("pending").orElseThrow();
    return ((dev.ratchet.json.JsonString) pending.get("idempotency_key").orElseThrow()).value();
  }

  /** Runs one command line in-process on this store; returns stdout and stderr. */
  String cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
    Main.execute(all.toArray(String[]::new), p, p, services);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The HTTP example's task, connected to this test's ledger service. */
  private Path ordersTask() throws IOException {
    JsonObject example =
        (JsonObject) Json.parse(Files.readString(Path.of("../examples/http/acme-orders.json")));
    Path task = cwd.resolve("orders.json");
    Files.writeString(
        task,
        Canonical.string(
            example.with(
                "connect",
                JsonObject.builder()
                    .put("base_url", ledger.uri().toString())
                    .put("client_secret_file", ledger.clientSecretFile().toString())
                    .build())));
    return task;
  }

  @Override
  public void close() {
    if (worker != null) {
      worker.destroyForcibly();
      try {
        worker.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    server.close();
    ledger.close();
  }
}
