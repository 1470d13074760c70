package dev.ratchet.cli.internal;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.RunState;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One command's open store with its keys and trust roots, and the lookups every run command needs:
 * which task a run belongs to, its task file, its adapter, and its verified state. Keys are loaded
 * before the store is opened, so a key problem never creates or touches a store.
 */
public final class Session implements AutoCloseable {
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);

  private final Services services;
  private final Settings settings;
  private final KeyRing keys;
  // Re-read by reloadTrust (issue 39: a long-lived worker notices keys trusted after it started).
  private volatile TrustRoot approvers;
  private volatile TrustRoot reviewers;
  private volatile TrustRoot operators;
  private final Stores stores;
  private final List<AutoCloseable> opened = new java.util.ArrayList<>();

  /**
   * Replaces the secrets redacted from evidence (default: every loaded key, SPEC D27). Set only by
   * the key-leak test's canary, which turns redaction off to prove its scan can fail; no option,
   * variable or file reaches it.
   */
  static volatile dev.ratchet.sign.SecretRegistry secretsForTests;

  private Session(
      Services services,
      Settings settings,
      KeyRing keys,
      TrustRoot approvers,
      TrustRoot reviewers,
      TrustRoot operators,
      Stores stores) {
    this.services = services;
    this.settings = settings;
    this.keys = keys;
    this.approvers = approvers;
    this.reviewers = reviewers;
    this.operators = operators;
    this.stores = stores;
  }

  /**
   * Loads the keys and trust roots the settings name, so a key problem is reported before a store
   * is created or an environment prepared.
   */
  public static void preflight(Settings settings) {
    KeyConfig.checkpointRing(settings.keyFiles(), settings.resolvedHome());
    KeyConfig.approvers(settings.approversDir());
    KeyConfig.reviewers(settings.reviewersDir());
    KeyConfig.trustRoot(settings, dev.ratchet.sign.Role.OPERATOR);
    settings.storeSpec();
    settings.markSpec();
  }

  /**
   * Refuses ({@code CONTRACT}) a run id the store already holds, opening only a store that exists
   * (a SQLite file that is there; a PostgreSQL schema that is migrated), so the check creates
   * nothing. {@code run} calls it before it prepares the environment.
   */
  public static void refuseExistingRun(Services services, Settings settings, String runId) {
    for (StoreSpec spec : java.util.Arrays.asList(settings.storeSpec(), settings.markSpec())) {
      if (spec != null && spec.kind() == StoreSpec.Kind.SQLITE && !Files.exists(spec.file())) {
        return; // no store yet, so no run
      }
    }
    try (Session s = open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
      if (!s.store().runs(runId).isEmpty()) {
        throw RatchetException.contract(
            "--run-id: run '"
                + runId
                + "' already exists: 'ratchet resume "
                + runId
                + "' continues it");
      }
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.STORE_UNAVAILABLE
          || !String.valueOf(e.getMessage()).contains("not an initialised Ratchet store")) {
        throw e;
      }
    }
  }

  /** Loads keys and trust roots, then opens the store ({@code CREATE} only for new runs). */
  public static Session open(
      Services services, Settings settings, StoreFactory.Mode mode, CrashSeam storeSeam) {
    return open(services, settings, mode, storeSeam, null);
  }

  /** As {@link #open}, with a key ring chosen by the caller (key rotation). */
  public static Session open(
      Services services,
      Settings settings,
      StoreFactory.Mode mode,
      CrashSeam storeSeam,
      KeyRing ring) {
    return open(services, settings, mode, storeSeam, ring, 1);
  }

  /**
   * As {@link #open}, for a caller that drives up to {@code concurrentRuns} runs at once (a
   * worker's slots), so the store can batch their commits ({@link StoreFactory}).
   */
  public static Session open(
      Services services,
      Settings settings,
      StoreFactory.Mode mode,
      CrashSeam storeSeam,
      int concurrentRuns) {
    return open(services, settings, mode, storeSeam, null, concurrentRuns);
  }

  private static Session open(
      Services services,
      Settings settings,
      StoreFactory.Mode mode,
      CrashSeam storeSeam,
      KeyRing ring,
      int concurrentRuns) {
    KeyRing keys =
        ring != null
            ? ring
            : KeyConfig.checkpointRing(settings.keyFiles(), settings.resolvedHome());
    TrustRoot approvers = KeyConfig.approvers(settings.approversDir());
    TrustRoot reviewers = KeyConfig.reviewers(settings.reviewersDir());
    TrustRoot operators = KeyConfig.trustRoot(settings, dev.ratchet.sign.Role.OPERATOR);
    StoreSpec content = settings.storeSpec();
    StoreSpec mark = settings.markSpec();
    nativeCache(settings.resolvedHome(), mode, content, mark);
    Stores stores =
        services.stores().open(content, mark, mode, services.clock(), storeSeam, concurrentRuns);
    return new Session(services, settings, keys, approvers, reviewers, operators, stores);
  }

  /**
   * Before a SQLite store's first connection: sqlite-jdbc's native library comes from the home's
   * cache, extracted once, not from a new file in the system temp directory per JVM. Only in a home
   * that exists or is being created, so a refused command creates nothing.
   */
  private static void nativeCache(Home home, StoreFactory.Mode mode, StoreSpec... specs) {
    boolean sqlite = false;
    for (StoreSpec s : specs) {
      sqlite |= s != null && s.kind() == StoreSpec.Kind.SQLITE;
    }
    if (sqlite && (mode == StoreFactory.Mode.CREATE || Files.isDirectory(home.dir()))) {
      dev.ratchet.jdbc.SqliteNative.useCache(home.cache());
    }
  }

  public Services services() {
    return services;
  }

  public Settings settings() {
    return settings;
  }

  public Home home() {
    return settings.resolvedHome();
  }

  public CheckpointStore store() {
    return stores.checkpoints();
  }

  public LeaseStore leases() {
    return stores.leases();
  }

  /**
   * The store's scheduling side (D33): what {@code submit} and {@code worker} need; {@code
   * CONTRACT} naming {@code command} when the opened store offers none.
   */
  /**
   * Who acts on a delivered decision next, in words true to who drives the run (issue 39): a run
   * with a live scheduling row is driven by workers, so one claims it (no command to type);
   * otherwise {@code 'ratchet resume RUN'} does. {@code does} says what that action does.
   */
  public String whoActsNext(String taskId, String runId, String does) {
    boolean workers =
        schedulingIfAny()
            .map(
                s ->
                    s.scheduled().stream()
                        .anyMatch(
                            r ->
                                r.taskId().equals(taskId)
                                    && r.runId().equals(runId)
                                    && !r.state().equals("ended")))
            .orElse(false);
    return workers
        ? "a worker claims the run and " + does + " (no resume needed)"
        : "'ratchet resume " + runId + "' " + does;
  }

  /**
   * Re-reads the home's trust roots (approvers, reviewers, operators); what changed, or null when
   * nothing did. A long-lived worker calls it before each claim, so a key trusted with {@code keys
   * trust} after it started is honoured without a restart (issue 39).
   */
  public synchronized String reloadTrust() {
    // Before each claim, so only a cheap listing unless a trust directory changed.
    String listing = trustListing();
    if (listing.equals(trustListing)) {
      return null;
    }
    trustListing = listing;
    TrustRoot a = KeyConfig.approvers(settings.approversDir());
    TrustRoot r = KeyConfig.reviewers(settings.reviewersDir());
    TrustRoot o = KeyConfig.trustRoot(settings, dev.ratchet.sign.Role.OPERATOR);
    List<String> changed = new java.util.ArrayList<>();
    if (!a.toString().equals(approvers.toString())) {
      changed.add(a.toString());
    }
    if (!r.toString().equals(reviewers.toString())) {
      changed.add(r.toString());
    }
    if (!o.toString().equals(operators.toString())) {
      changed.add(o.toString());
    }
    approvers = a;
    reviewers = r;
    operators = o;
    return changed.isEmpty() ? null : String.join(", ", changed);
  }

  /** The trust directories' listing when the roots were last (re)loaded; empty: never checked. */
  private String trustListing = "";

  /** Every file of the three trust directories with its size and modification time. */
  private String trustListing() {
    StringBuilder b = new StringBuilder();
    for (dev.ratchet.sign.Role role : dev.ratchet.sign.Role.values()) {
      java.nio.file.Path dir = settings.trustDir(role);
      b.append(dir).append('\n');
      try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
        for (java.nio.file.Path f : files.sorted().toList()) {
          java.nio.file.attribute.BasicFileAttributes a =
              java.nio.file.Files.readAttributes(
                  f, java.nio.file.attribute.BasicFileAttributes.class);
          b.append(f.getFileName())
              .append(' ')
              .append(a.size())
              .append(' ')
              .append(a.lastModifiedTime().toMillis())
              .append('\n');
        }
      } catch (java.io.IOException e) {
        b.append("unreadable\n"); // a missing directory: the roots say what that means
      }
    }
    return b.toString();
  }

  /** The store's scheduling side when it has one (SQLite, PostgreSQL, the in-memory store). */
  public Optional<dev.ratchet.schedule.SchedulingStore> schedulingIfAny() {
    return stores.scheduling();
  }

  public dev.ratchet.schedule.SchedulingStore scheduling(String command) {
    return stores
        .scheduling()
        .orElseThrow(
            () ->
                RatchetException.contract(
                    "--store: "
                        + command
                        + " needs a store that schedules runs (SQLite, PostgreSQL)"));
  }

  /** Whether the store batches the commits of concurrent runs (group commit, ADR 0043). */
  public boolean groupCommit() {
    return store() instanceof dev.ratchet.jdbc.JdbcStore j && j.options().groupCommit();
  }

  public KeyRing keys() {
    return keys;
  }

  public TrustRoot approvers() {
    return approvers;
  }

  public TrustRoot reviewers() {
    return reviewers;
  }

  public TrustRoot operators() {
    return operators;
  }

  public Ratchet ratchet(String workerId, Duration leaseTtl, CrashSeam seam) {
    return ratchet(workerId, leaseTtl, seam, keys);
  }

  public Ratchet ratchet(String workerId, Duration leaseTtl, CrashSeam seam, KeyRing ring) {
    return ratchet(workerId, leaseTtl, seam, ring, stores.leases());
  }

  /** A front door over another lease store (a worker's claimed leases over the store's). */
  public Ratchet ratchet(
      String workerId, Duration leaseTtl, CrashSeam seam, KeyRing ring, LeaseStore leases) {
    return ratchet(
        workerId, leaseTtl, seam, ring, leases, dev.ratchet.telemetry.RatchetObserver.NONE);
  }

  /** As above, reporting to {@code observer} (a worker's {@code --metrics-port}). */
  public Ratchet ratchet(
      String workerId,
      Duration leaseTtl,
      CrashSeam seam,
      KeyRing ring,
      LeaseStore leases,
      dev.ratchet.telemetry.RatchetObserver observer) {
    Ratchet.Builder b =
        Ratchet.builder()
            .observer(observer)
            .secrets(
                secretsForTests != null ? secretsForTests : loadedSecrets(ring, System.getenv()));
    return b.store(stores.checkpoints())
        .leases(leases)
        .checkpointKeys(ring)
        .approvers(approvers)
        .reviewers(reviewers)
        .operators(operators)
        .clock(services.clock())
        .entropy(services.entropy())
        .crashSeam(seam)
        .workerId(workerId)
        .leaseTtl(leaseTtl)
        .build();
  }

  /**
   * Every secret this process loaded, for the redaction of evidence (D27, D30): the checkpoint
   * keys, and each PostgreSQL password the environment holds ({@code RATCHET_PG_PASSWORD}, {@code
   * RATCHET_PG_<ROLE>_PASSWORD}), marked by the variable's name. A password shorter than {@value
   * dev.ratchet.sign.SecretRegistry#FRAGMENT_BYTES} bytes cannot be told from ordinary text and is
   * not scanned for (docs/threat-model.md).
   */
  static dev.ratchet.sign.SecretRegistry loadedSecrets(
      KeyRing ring, java.util.Map<String, String> env) {
    dev.ratchet.sign.SecretRegistry.Builder b = dev.ratchet.sign.SecretRegistry.builder().add(ring);
    List<String> names = new java.util.ArrayList<>(List.of(StoreSpec.PASSWORD_ENV));
    for (PgRole r : PgRole.values()) {
      if (r != PgRole.OWNER) {
        names.add(r.passwordEnv());
      }
    }
    for (String name : names) {
      String value = env.get(name);
      byte[] bytes =
          value == null ? new byte[0] : value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      if (bytes.length >= dev.ratchet.sign.SecretRegistry.FRAGMENT_BYTES) {
        b.add(name, bytes);
      }
    }
    return b.build();
  }

  /** The key id in the run's stored checkpoint envelope (public; read without verifying). */
  public String signingKeyId(CheckpointStore.RunRef ref) {
    return store()
        .load(ref.taskId(), ref.runId())
        .map(r -> r.envelope().declaredKeyId().orElse("?"))
        .orElse("-");
  }

  /** The run's lease if a worker holds it now (unexpired and not released). */
  public java.util.Optional<dev.ratchet.store.Lease> heldLease(String runId) {
    return leases()
        .current(runId)
        .filter(
            l -> {
              try {
                leases().check(l.fence());
                return true;
              } catch (RatchetException e) {
                if (e.code() != dev.ratchet.error.ErrorCode.FENCED) {
                  throw e;
                }
                return false;
              }
            });
  }

  /** The stored run with this id; {@code CONTRACT} when the store has none or several. */
  public CheckpointStore.RunRef find(String runId) {
    List<CheckpointStore.RunRef> hits = store().runs(runId);
    if (hits.isEmpty()) {
      throw RatchetException.contract(
          "RUN_ID: no run '"
              + runId
              + "' in "
              + settings.storeSpec()
              + " ('ratchet status' lists the runs)");
    }
    if (hits.size() > 1) {
      throw RatchetException.contract(
          "RUN_ID: run id '" + runId + "' exists for several tasks; this command needs one");
    }
    return hits.get(0);
  }

  /** The task file of a run: {@code --task}, else the copy {@code run} recorded. */
  public TaskFile taskFor(CheckpointStore.RunRef ref) {
    TaskFile tf;
    if (settings.task() != null) {
      tf = TaskFile.load(settings.task(), services.adapters());
    } else {
      tf =
          TaskRegistry.forRun(home(), ref.runId(), services.adapters())
              .or(() -> submitted(ref))
              .orElseThrow(
                  () ->
                      RatchetException.contract(
                          "no task file recorded or submitted for run '"
                              + ref.runId()
                              + "' in "
                              + home().dir()
                              + ": pass --task TASK.json"));
    }
    if (!tf.task().taskId().equals(ref.taskId())) {
      throw RatchetException.contract(
          "--task: the file is task '"
              + tf.task().taskId()
              + "' but run '"
              + ref.runId()
              + "' belongs to task '"
              + ref.taskId()
              + "'");
    }
    return tf;
  }

  /** A submitted run's task (ADR 0061), verified against this home's operator trust root. */
  private java.util.Optional<TaskFile> submitted(CheckpointStore.RunRef ref) {
    return stores
        .scheduling()
        .flatMap(s -> s.submission(ref.taskId(), ref.runId()))
        .map(
            env ->
                SubmittedTask.verify(
                    env,
                    ref.taskId(),
                    ref.runId(),
                    PlanDriver.NAME,
                    operators,
                    services.adapters(),
                    home().dir()));
  }

  /** Opens the run's adapter; the session closes it (a workspace holds its journal open). */
  public EnvironmentAdapter adapter(TaskFile tf, boolean prepare) {
    EnvironmentAdapter a = adapter(services, tf, prepare, CrashSeam.NONE);
    if (a instanceof AutoCloseable c) {
      opened.add(c);
    }
    return a;
  }

  /** Opens the adapter a task file names (before any store is opened, for {@code run}). */
  public static EnvironmentAdapter adapter(
      Services services, TaskFile tf, boolean prepare, CrashSeam seam) {
    AdapterRegistry adapters = services.adapters();
    EnvironmentAdapter adapter;
    try {
      adapter =
          adapters
              .get("task.adapter", tf.task().adapter())
              .open(
                  tf.task().environment(),
                  tf.connect(),
                  prepare,
                  adapters.context().withSeam(seam));
    } catch (RatchetException e) {
      throw ServiceAdapter.opening(tf.task().adapter(), e);
    }
    tf.checkAgainst(adapter.actionSpecs());
    return ServiceAdapter.wrap(adapter);
  }

  /**
   * A run's checked context: its task file, the adapter's declarations and the verified state.
   * Nothing is executed and no adapter is opened (D30: operator surfaces run no adapter tooling
   * against the environment): the provider declares the action specs, and the adapter in the result
   * refuses every environment call.
   */
  public Checked check(String runId) {
    CheckpointStore.RunRef ref = find(runId);
    TaskFile tf = taskFor(ref);
    AdapterRegistry adapters = services.adapters();
    EnvironmentAdapter declared =
        new dev.ratchet.adapter.DeclaredAdapter(
            tf.task().adapter(),
            adapters
                .get("task.adapter", tf.task().adapter())
                .actionSpecs(tf.task().environment(), adapters.context()));
    RunState state =
        ratchet("cli-verify", DEFAULT_LEASE_TTL, CrashSeam.NONE).verify(tf.task(), runId, declared);
    return new Checked(ref, tf, declared, state);
  }

  /** What the checked run waits for from a person, judged now (issue 17). */
  public java.util.Optional<dev.ratchet.outcome.Waiting> waiting(Checked c) {
    return dev.ratchet.outcome.Waiting.of(
        c.state(),
        c.task().task(),
        store().inbox(c.ref().taskId(), c.ref().runId()),
        services.clock().millis(),
        approvers,
        reviewers);
  }

  /** A verified run with what was needed to verify it. */
  public record Checked(
      CheckpointStore.RunRef ref, TaskFile task, EnvironmentAdapter adapter, RunState state) {}

  @Override
  public void close() {
    for (AutoCloseable c : opened) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing an adapter changes nothing it committed.
      }
    }
    stores.close();
  }
}
