package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.ops.internal.AdapterOpener;
import dev.ratchet.ops.internal.RunTasks;
import dev.ratchet.ops.internal.TrustRoots;
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
  private final TrustRoots trust;
  private final Stores stores;
  private final List<AutoCloseable> opened = new java.util.ArrayList<>();

  private Session(
      Services services, Settings settings, KeyRing keys, TrustRoots trust, Stores stores) {
    this.services = services;
    this.settings = settings;
    this.keys = keys;
    this.trust = trust;
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
    TrustRoots trust = TrustRoots.load(settings, services.clock());
    StoreSpec content = settings.storeSpec();
    StoreSpec mark = settings.markSpec();
    nativeCache(settings.resolvedHome(), mode, content, mark);
    Stores stores =
        services.stores().open(content, mark, mode, services.clock(), storeSeam, concurrentRuns);
    return new Session(services, settings, keys, trust, stores);
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
   * Who acts on a delivered decision next, in words true to who drives the run (issue 39): a run
   * with a live scheduling row is driven by workers, so one claims it (no command to type);
   * otherwise {@code 'ratchet resume RUN'} does — also for a run a worker parked at claim (its row
   * has a reason): a worker would only refuse it again. {@code does} says what that action does.
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
                                    && !r.state().equals("ended")
                                    && r.reason() == null))
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
  public String reloadTrust() {
    return trust.reload();
  }

  /** The store's scheduling side when it has one (SQLite, PostgreSQL, the in-memory store). */
  public Optional<dev.ratchet.schedule.SchedulingStore> schedulingIfAny() {
    return stores.scheduling();
  }

  /**
   * The store's scheduling side (D33): what {@code submit} and {@code worker} need; {@code
   * CONTRACT} naming {@code command} when the opened store offers none.
   */
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
    return trust.approvers();
  }

  public TrustRoot reviewers() {
    return trust.reviewers();
  }

  public TrustRoot operators() {
    return trust.operators();
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
        Ratchet.builder().observer(observer).secrets(services.secrets().apply(ring));
    return b.store(stores.checkpoints())
        .leases(leases)
        .checkpointKeys(ring)
        .approvers(trust.approvers())
        .reviewers(trust.reviewers())
        .operators(trust.operators())
        .clock(services.clock())
        .entropy(services.entropy())
        .crashSeam(seam)
        .workerId(workerId)
        .leaseTtl(leaseTtl)
        .build();
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

  /** The task file of a run: {@code --task}, else the copy {@code run} recorded or submitted. */
  public TaskFile taskFor(CheckpointStore.RunRef ref) {
    return RunTasks.taskFor(settings, services.adapters(), stores.scheduling(), trust, ref);
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
    return AdapterOpener.open(services.adapters(), tf, prepare, seam);
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
    EnvironmentAdapter declared = AdapterOpener.declared(services.adapters(), tf);
    Ratchet verifier = ratchet("cli-verify", DEFAULT_LEASE_TTL, CrashSeam.NONE);
    RunState state = verifier.verify(tf.task(), runId, declared);
    if (!state.taskFingerprint().equals(tf.task().fingerprint())) {
      // D37: migrated since its task file was recorded or submitted; decisions bind to the task
      // (and policy) it runs under now.
      TaskSpec now = verifier.currentTask(tf.task(), runId, declared.actionSpecs());
      tf = new TaskFile(now, tf.connect(), tf.plan(), tf.source());
    }
    return new Checked(ref, tf, declared, state);
  }

  /**
   * What the checked run waits for from a person, judged now (issue 17). When its inbox holds
   * anything, the items are checked against the run's traced refusals (issue 39): one a worker
   * refused is never said to wait to be consumed, and the hint says it was refused and why. The
   * trace is read only then.
   */
  public java.util.Optional<dev.ratchet.outcome.Waiting> waiting(Checked c) {
    java.util.List<dev.ratchet.store.InboxItem> inbox =
        store().inbox(c.ref().taskId(), c.ref().runId());
    long now = services.clock().millis();
    java.util.Optional<dev.ratchet.outcome.Waiting> w =
        dev.ratchet.outcome.Waiting.of(
            c.state(), c.task().task(), inbox, now, trust.approvers(), trust.reviewers());
    if (w.isEmpty() || inbox.isEmpty()) {
      return w;
    }
    return dev.ratchet.outcome.Waiting.of(
        c.state(),
        c.task().task(),
        inbox,
        now,
        trust.approvers(),
        trust.reviewers(),
        RunViews.refusedReasons(this, c));
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
