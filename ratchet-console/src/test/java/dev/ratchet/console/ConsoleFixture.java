package dev.ratchet.console;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.cli.Main;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.AdapterRegistry;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.Stores;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.testkit.InMemoryStore;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.TamperingStore;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store with two runs an operator must act on, and a console serving it: {@code r-approve} waits
 * for approval of its {@code append_file}; {@code r-conflict} is frozen on a receipt conflict
 * (another client used its idempotency key). The command line runs in-process on the testkit's
 * in-memory store; each task has its own in-memory workspace. {@link #worker} stands where a worker
 * would claim the run: {@code ratchet resume} in-process (the front door's resume).
 */
final class ConsoleFixture implements AutoCloseable {
  static final String APPROVE = "r-approve";
  static final String CONFLICT = "r-conflict";

  final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  final InMemoryStore store = new InMemoryStore(clock);

  /** What every command and the console read through: a test may edit what reads return. */
  final TamperingStore tampering = new TamperingStore(store);

  final Map<String, InMemoryWorkspace> workspaces = new ConcurrentHashMap<>();

  /** Live observations of any workspace through the adapter, by anyone (workers included). */
  final java.util.concurrent.atomic.AtomicInteger liveObservations =
      new java.util.concurrent.atomic.AtomicInteger();

  final Path home;
  final Services services;
  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final ConsoleServer server;

  /** What the console printed on its terminal. */
  final StringWriter terminal = new StringWriter();

  final String conflictKey;

  /** The approver's, reviewer's and operator's own keys, held where their browsers would be. */
  final SigningKey alice;

  final SigningKey rita;
  final SigningKey olga;

  ConsoleFixture(Path dir) {
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
            return workspace(environment).actionSpecs();
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
            // Counts every live observation, so a test can prove a surface made none (D30).
            return new dev.ratchet.adapter.ForwardingAdapter(workspace(environment)) {
              @Override
              public dev.ratchet.adapter.Observation observe() {
                liveObservations.incrementAndGet();
                return delegate.observe();
              }
            };
          }
        };
    this.services =
        new Services(
            (content, mark, mode, c, seam, runs) -> new Stores(tampering, store, () -> {}),
            new AdapterRegistry(
                List.of(provider),
                new AdapterProvider.Context(clock, new SeededEntropy(20), CrashSeam.NONE)),
            clock,
            new SeededEntropy(20));
    cli("keys", "generate");
    String alicePath = person("approver", "alice");
    String ritaPath = person("reviewer", "rita");
    String olgaPath = person("operator", "olga");
    cli("run", task("deploy-greeting", "hello").toString(), "--run-id", APPROVE);
    cli("run", task("rotate-log", "hi").toString(), "--run-id", CONFLICT);
    conflictKey = pendingKey(CONFLICT);
    // Another client uses the run's pending key for a different intent at the adapter.
    workspaces
        .get("hi")
        .execute(
            new WriteIntent(
                InMemoryWorkspace.NAMESPACE,
                "append_file",
                JsonObject.builder().put("path", "log.txt").put("content", "evil\n").build(),
                "irreversible_write"),
            conflictKey,
            new Fence("other", "intruder", 1),
            ApprovalBinding.NONE);
    cli("approve", CONFLICT, "--approver", "alice");
    worker(CONFLICT);
    Settings settings = new Settings(home, null, null, List.of(), null, null, null);
    // The humans' keys stay with the test, as they stay in the humans' browsers: the console
    // process is given none.
    this.alice = KeyConfig.signer(Path.of(alicePath), null, settings.resolvedHome(), Role.APPROVER);
    this.rita = KeyConfig.signer(Path.of(ritaPath), null, settings.resolvedHome(), Role.REVIEWER);
    this.olga = KeyConfig.signer(Path.of(olgaPath), null, settings.resolvedHome(), Role.OPERATOR);
    this.server =
        ConsoleServer.start(
            new ConsoleLauncher.Request(
                services,
                settings,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                null,
                ConsoleLauncher.Request.DEFAULT_SESSION_TTL,
                ConsoleLauncher.Request.DEFAULT_PREVIEW_TTL,
                new PrintWriter(terminal, true)),
            registry);
  }

  /** The key a browser would sign {@code path}'s decision with: olga cancels, rita decides. */
  SigningKey keyFor(String path) {
    return path.contains("/cancel")
            || path.contains("pause")
            || path.contains("/migrate")
            || path.contains("/fork")
        ? olga
        : path.contains("/decide") ? rita : alice;
  }

  /** The Cookie header value by which a browser names its key for {@code path}'s action. */
  String signerCookie(String path) {
    return Actions.SIGNER_COOKIE + "=" + keyFor(path).keyId();
  }

  /**
   * What a browser's script adds to a preview's form: the key id the preview was built for and that
   * key's Ed25519 signature of exactly the page's data-payload bytes.
   */
  String signature(String page) {
    Matcher id = Pattern.compile("name=\"key_id\" value=\"([0-9a-f]{16})\"").matcher(page);
    Matcher bytes = Pattern.compile("data-payload=\"([A-Za-z0-9_-]+)\"").matcher(page);
    if (!id.find() || !bytes.find()) {
      throw new IllegalStateException("not a preview page: " + page);
    }
    SigningKey key =
        java.util.stream.Stream.of(alice, rita, olga)
            .filter(k -> k.keyId().equals(id.group(1)))
            .findFirst()
            .orElseThrow();
    return "&key_id="
        + key.keyId()
        + "&signature="
        + key.sign(java.util.Base64.getUrlDecoder().decode(bytes.group(1)));
  }

  private InMemoryWorkspace workspace(JsonObject environment) {
    String env = environment.toString();
    String greeting = env.contains("'hi'") ? "hi" : env.contains("'agent'") ? "agent" : "hello";
    return workspaces.computeIfAbsent(
        greeting,
        g -> new InMemoryWorkspace("ws-" + g, clock, Map.of("app.py", "print('" + g + "'\n")));
  }

  /** Where a worker would claim the run: resume it in-process, a minute later. */
  String worker(String runId) {
    clock.advance(Duration.ofMinutes(1));
    return cli("resume", runId);
  }

  /**
   * Starts a run of a new task as {@code ratchet run} does (its task file recorded) but takes no
   * step: the run is running, nothing pending, no lease held.
   */
  void startIdle(String runId, String taskId) {
    Settings settings = new Settings(home, null, null, List.of(), null, null, null);
    TaskFile tf = TaskFile.load(task(taskId, "hello"), services.adapters());
    EnvironmentAdapter adapter = Session.adapter(services, tf, true, CrashSeam.NONE);
    try (Session s =
        Session.open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
      TaskRegistry.record(s.home(), runId, tf);
      s.ratchet("w-idle", Session.DEFAULT_LEASE_TTL, CrashSeam.NONE)
          .start(tf.task(), runId, adapter)
          .close();
    }
  }

  /** Runs one command line; returns stdout and stderr. */
  String cli(String... args) {
    return cli(services, args);
  }

  /**
   * Runs one command line over the same store seen without its scheduling side: what it commits is
   * committed and nothing is scheduled (a fork cut off between its commit and its scheduling).
   */
  String cliWithoutScheduling(String... args) {
    Services unscheduled =
        new Services(
            (content, mark, mode, c, seam, runs) ->
                new Stores(store, new dev.ratchet.store.ForwardingLeaseStore(store) {}, () -> {}),
            services.adapters(),
            clock,
            services.entropy());
    return cli(unscheduled, args);
  }

  private String cli(Services services, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Main.execute(
        all.toArray(String[]::new),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        services);
    return out.toString(StandardCharsets.UTF_8);
  }

  List<InboxItem> inbox(String taskId, String runId) {
    return store.inbox(taskId, runId);
  }

  private String pendingKey(String runId) {
    String out = cli("inspect", runId, "--json");
    int i = out.indexOf("\"idempotency_key\":\"");
    return out.substring(i + 19, out.indexOf('"', i + 19));
  }

  private String person(String role, String name) {
    cli("keys", "generate", "--role", role, "--name", name);
    Path dir = home.resolve("identities").resolve(role);
    cli("keys", "trust", "--role", role, dir.resolve(name + ".pub").toString());
    return dir.resolve(name + ".key").toString();
  }

  private Path task(String taskId, String greeting) {
    return task(taskId, greeting, "fixed\\n");
  }

  /**
   * Runs a new task whose gated append writes {@code content} (JSON string text, escapes allowed),
   * as an agent might have written it; the run waits for approval of that append.
   */
  void runWaitingToAppend(String runId, String taskId, String content) {
    cli("run", task(taskId, "agent", content).toString(), "--run-id", runId);
  }

  private Path task(String taskId, String greeting, String logContent) {
    String text =
        """
        {
          "format": "ratchet-task/1",
          "task": {
            "schema_version": 1,
            "task_id": "%s",
            "task_version": "v1",
            "policy_id": "environment-policy",
            "policy_version": "v1",
            "adapter": "memory-workspace",
            "permissions": ["workspace.read", "workspace.write", "tests.run"],
            "action_kinds": ["read_file", "write_file", "append_file", "run_tests"],
            "targets": ["app.py", "log.txt", "unit"],
            "approval_required": ["append_file"],
            "budgets": {"max_proposals": 100, "max_steps": 50, "max_wall_time_ms": 86400000, "max_cost": 0},
            "environment": {"files": {"app.py": "print('%s'\\n"}},
            "verifier": {"expected_files": {"app.py": "print('ready')\\n"}}
          },
          "connect": {},
          "plan": [
            {"id": "fix", "kind": "write_file", "arguments": {"path": "app.py", "content": "print('ready')\\n"}},
            {"id": "log", "kind": "append_file", "arguments": {"path": "log.txt", "content": "%s"}},
            {"id": "test", "kind": "run_tests", "arguments": {"target": "unit"}},
            {"id": "done", "kind": "finish", "arguments": {}}
          ]
        }
        """
            .formatted(taskId, greeting, logContent);
    Path f = home.getParent().resolve(taskId + ".json");
    try {
      Files.createDirectories(f.getParent());
      Files.writeString(f, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return f;
  }

  String base() {
    return "http://127.0.0.1:" + server.address().getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
