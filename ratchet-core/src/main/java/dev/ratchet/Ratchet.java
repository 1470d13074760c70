package dev.ratchet;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.internal.Engine;
import dev.ratchet.internal.Observed;
import dev.ratchet.internal.ObservedStore;
import dev.ratchet.internal.RunContext;
import dev.ratchet.internal.Runs;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretRegistry;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * The front door: a worker's configured access to one store, its keys and trust roots. {@link
 * #start} begins a run, {@link #resume} recovers one from the store alone plus the externally
 * supplied task and keys. Thread-safe; each {@link Run} it returns is driven by one thread.
 *
 * <pre>{@code
 * Ratchet ratchet = Ratchet.builder()
 *     .store(store).leases(store).checkpointKeys(keyRing)
 *     .approvers(approvers).reviewers(reviewers).workerId("worker-1").build();
 * try (Run run = ratchet.start(task, "run-1", adapter)) {
 *   run.apply(run.action("a1", "write_file", args));
 * }
 * Run again = ratchet.resume(task, "run-1", adapter); // after a crash: again.recovery() says what
 * ratchet.deliver(Ratchet.sign(approval, approverKey)); // an approver signs with their own key
 * }</pre>
 */
public final class Ratchet {
  private final CheckpointStore store;
  private final LeaseStore leases;
  private final KeyRing keys;
  private final TrustRoot approvers;
  private final TrustRoot reviewers;
  private final TrustRoot operators;
  private final InstantSource clock;
  private final Entropy entropy;
  private final CrashSeam crash;
  private final String workerId;
  private final Duration leaseTtl;
  private final SecretRegistry secrets;
  private final RatchetObserver observer;
  private final MonotonicClock monotonic;
  private final Duration leaseMargin;

  private Ratchet(Builder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.leases = Objects.requireNonNull(b.leases, "leases");
    this.keys = Objects.requireNonNull(b.keys, "checkpointKeys");
    this.approvers = Objects.requireNonNull(b.approvers, "approvers");
    this.reviewers = Objects.requireNonNull(b.reviewers, "reviewers");
    // Optional: a worker that trusts no operator refuses every cancel as untrusted_signer.
    this.operators = b.operators != null ? b.operators : TrustRoot.operators(java.util.List.of());
    this.clock = b.clock == null ? Seams.systemClock() : b.clock;
    this.entropy = b.entropy == null ? Seams.secureEntropy() : b.entropy;
    this.crash = b.crash == null ? CrashSeam.NONE : b.crash;
    this.workerId = Objects.requireNonNull(b.workerId, "workerId");
    this.leaseTtl = b.leaseTtl == null ? Duration.ofSeconds(30) : b.leaseTtl;
    this.secrets = b.secrets != null ? b.secrets : SecretRegistry.builder().add(keys).build();
    this.observer = b.observer == null ? RatchetObserver.NONE : b.observer;
    // An injected wall clock (a test's fake) drives the local lease check too, unless a monotonic
    // clock is injected as well; the system's wall clock (a singleton) means the system's
    // monotonic clock, which no clock adjustment moves.
    if (b.monotonic != null) {
      this.monotonic = b.monotonic;
    } else if (b.clock == null || b.clock == Seams.systemClock()) {
      this.monotonic = Seams.systemMonotonic();
    } else {
      this.monotonic = MonotonicClock.of(b.clock);
    }
    this.leaseMargin = b.leaseMargin == null ? leaseTtl.dividedBy(5) : b.leaseMargin;
    if (leaseMargin.isNegative() || leaseMargin.compareTo(leaseTtl) >= 0) {
      throw RatchetException.contract(
          "lease_margin: must be >= 0 and shorter than the lease TTL (" + leaseTtl + ")");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a new run: validates the whole task (D31, {@link dev.ratchet.model.TaskRules}: core's
   * rules, then the adapter provider's), takes its lease, observes the environment, commits
   * generation 1. A refused task creates nothing.
   */
  public Run start(TaskSpec task, String runId, EnvironmentAdapter adapter) {
    dev.ratchet.model.TaskRules.check(task, java.util.List.of(), adapter.actionSpecs());
    Engine e = Runs.start(context(task, observed(adapter, runId)), runId);
    return new Run(e, null, observer);
  }

  /**
   * Recovers a run in a fresh runtime from the store, the supplied task and keys: fail closed on
   * any integrity, freshness or binding problem; then re-observes and reconciles.
   */
  public Run resume(TaskSpec task, String runId, EnvironmentAdapter adapter) {
    dev.ratchet.model.TaskRules.check(task, java.util.List.of(), adapter.actionSpecs());
    RunContext ctx = context(task, observed(adapter, runId));
    Runs.Resumed r =
        Observed.timed(
            observer,
            clock,
            Step.Kind.RECOVERY,
            "recovery",
            runId,
            null,
            -1,
            () -> resume(ctx, runId));
    observer.recovered(runId, r.recovery().found(), r.recovery().did());
    return new Run(r.engine(), r.recovery(), observer);
  }

  /**
   * Forks a terminal, paused or frozen run (SPEC D37, ADR 0130) by an operator's signed {@link
   * dev.ratchet.model.ForkDecision}: verifies the signature against the operator trust root, the
   * binding to {@code sourceRunId} (its generation and task digest), the new task's digest and the
   * signed observation against the live environment; then creates the decision's new run in one
   * commit, starting from the source's authenticated state at the signed step and carrying the
   * source's receipts, consumed nonces and quarantined keys. A write the new run proposes whose
   * action id and intent digest equal a receipted write of the source is replayed from that
   * receipt, never sent. Any refusal writes nothing; the source is never written.
   */
  public Run fork(
      TaskSpec sourceTask,
      String sourceRunId,
      SignedDecision signed,
      TaskSpec task,
      EnvironmentAdapter adapter) {
    dev.ratchet.model.TaskRules.check(task, java.util.List.of(), adapter.actionSpecs());
    String newRunId =
        signed.decision() instanceof dev.ratchet.model.ForkDecision d ? d.newRunId() : sourceRunId;
    RunContext source = context(sourceTask, adapter);
    Engine e =
        dev.ratchet.internal.Forks.fork(
            source, sourceRunId, context(task, observed(adapter, newRunId)), signed);
    return new Run(e, null, observer);
  }

  private static Runs.Resumed resume(RunContext ctx, String runId) {
    return Runs.resume(ctx, runId);
  }

  /** The adapter a run calls: itself, or reporting each call when an observer is configured. */
  private EnvironmentAdapter observed(EnvironmentAdapter adapter, String runId) {
    return observer == RatchetObserver.NONE
        ? adapter
        : Observed.adapter(adapter, observer, clock, runId);
  }

  /**
   * Key rotation (SPEC D15): verifies the run's current checkpoint with the key that signed it,
   * then commits it re-signed under this ratchet's active key. Takes and releases the run's lease;
   * observes, reconciles and executes nothing. Returns false (no commit) when the active key
   * already signs it.
   */
  public boolean resign(TaskSpec task, String runId, EnvironmentAdapter adapter) {
    return resign(task, runId, adapter.actionSpecs(), adapter.namespace());
  }

  /** {@link #resign(TaskSpec, String, EnvironmentAdapter)} with only the action specs it needs. */
  public boolean resign(TaskSpec task, String runId, List<ActionSpec> actionSpecs) {
    return resign(task, runId, actionSpecs, task.adapter());
  }

  private boolean resign(TaskSpec task, String runId, List<ActionSpec> specs, String namespace) {
    return Runs.resign(detached(task, specs, namespace), runId);
  }

  /**
   * Checks integrity and freshness of a stored run without a lease. The adapter supplies only its
   * declarations (namespace and action specs, which the state invariants need); the environment is
   * never called.
   */
  public RunState verify(TaskSpec task, String runId, EnvironmentAdapter adapter) {
    return verify(task, runId, adapter.actionSpecs(), adapter.namespace());
  }

  /**
   * {@link #verify(TaskSpec, String, EnvironmentAdapter)} with only the action specs the state
   * invariants need: no adapter is constructed or called.
   */
  public RunState verify(TaskSpec task, String runId, List<ActionSpec> actionSpecs) {
    return verify(task, runId, actionSpecs, task.adapter());
  }

  /**
   * The task a stored run runs under (D37), verified as {@link #verify(TaskSpec, String, List)}
   * verifies: {@code task} itself, or, for a run a signed migration moved on from {@code task}, the
   * task it was migrated to. Operator surfaces bind their decisions to it.
   */
  public TaskSpec currentTask(TaskSpec task, String runId, List<ActionSpec> actionSpecs) {
    return Runs.currentTask(detached(task, actionSpecs, task.adapter()), runId);
  }

  private RunState verify(TaskSpec task, String runId, List<ActionSpec> specs, String namespace) {
    return Runs.verify(detached(task, specs, namespace), runId);
  }

  /**
   * Signs {@code decision} with the signer's own key (SPEC D19: the key stays with the caller;
   * nothing here keeps it). For callers holding a key file (the CLI, tests); a browser signs {@link
   * dev.ratchet.model.Decision#payload()} itself and makes a {@link SignedDecision#of}.
   */
  public static SignedDecision sign(dev.ratchet.model.Decision decision, SigningKey key) {
    return SignedDecision.sign(decision, key);
  }

  /**
   * Verifies a signed decision against its role's trust root (approvers, reviewers or operators,
   * with the signer named as the root names the key, D30) and delivers it to its run's inbox, where
   * the lease holder consumes it (D12). Returns the trusted signer's name. Refusals are {@link
   * dev.ratchet.error.DecisionRefused}s; nothing is delivered then.
   */
  public String deliver(SignedDecision signed) {
    String name = signed.verify(trustRoot(signed.decision().role()));
    store.deliver(signed.decision().taskId(), signed.decision().runId(), signed.inboxItem());
    return name;
  }

  private TrustRoot trustRoot(dev.ratchet.sign.Role role) {
    switch (role) {
      case APPROVER:
        return approvers;
      case REVIEWER:
        return reviewers;
      default:
        return operators;
    }
  }

  /**
   * A context whose adapter only declares {@code specs} under {@code namespace} (checked against
   * the task's) and refuses every environment call.
   */
  private RunContext detached(TaskSpec task, List<ActionSpec> specs, String namespace) {
    return context(
        task, RunContext.detachedAdapter(task), RunContext.declarations(namespace, specs));
  }

  private RunContext context(TaskSpec task, EnvironmentAdapter adapter) {
    return context(task, adapter, adapter);
  }

  /**
   * A run context calling {@code environment}, with the action specs {@code declarations} gives.
   */
  private RunContext context(
      TaskSpec task, EnvironmentAdapter environment, EnvironmentAdapter declarations) {
    return new RunContext(
        task,
        environment,
        observer == RatchetObserver.NONE ? store : new ObservedStore(store, observer, clock),
        observer == RatchetObserver.NONE ? leases : Observed.leases(leases, observer),
        keys,
        approvers,
        reviewers,
        operators,
        clock,
        entropy,
        crash,
        workerId,
        leaseTtl,
        RunContext.specsFor(task, declarations),
        withCredentials(secrets, environment),
        monotonic,
        leaseMargin);
  }

  /**
   * The registry evidence is redacted against, plus the secrets the adapter holds (issue 36: a
   * service's client secret); unchanged when redaction is off (an empty registry).
   */
  private static SecretRegistry withCredentials(SecretRegistry keys, EnvironmentAdapter adapter) {
    if (keys.isEmpty()) {
      return keys;
    }
    SecretRegistry out = keys;
    for (java.util.Map.Entry<String, byte[]> c : adapter.credentials().entrySet()) {
      byte[] secret = c.getValue();
      try {
        if (secret.length >= SecretRegistry.FRAGMENT_BYTES) { // shorter is ordinary text
          out = out.with(c.getKey(), secret);
        }
      } finally {
        java.util.Arrays.fill(secret, (byte) 0);
      }
    }
    return out;
  }

  /** Configures a {@link Ratchet}; the clock and entropy default to the system seams. */
  public static final class Builder {
    private CheckpointStore store;
    private LeaseStore leases;
    private KeyRing keys;
    private TrustRoot approvers;
    private TrustRoot reviewers;
    private TrustRoot operators;
    private InstantSource clock;
    private Entropy entropy;
    private CrashSeam crash;
    private String workerId;
    private Duration leaseTtl;
    private SecretRegistry secrets;
    private RatchetObserver observer;
    private MonotonicClock monotonic;
    private Duration leaseMargin;

    public Builder store(CheckpointStore s) {
      store = s;
      return this;
    }

    public Builder leases(LeaseStore l) {
      leases = l;
      return this;
    }

    public Builder checkpointKeys(KeyRing k) {
      keys = k;
      return this;
    }

    public Builder approvers(TrustRoot t) {
      approvers = t;
      return this;
    }

    public Builder reviewers(TrustRoot t) {
      reviewers = t;
      return this;
    }

    /** Operators whose signed cancels (and submitted tasks) this worker accepts (SPEC D19, D24). */
    public Builder operators(TrustRoot t) {
      operators = t;
      return this;
    }

    public Builder clock(InstantSource c) {
      clock = c;
      return this;
    }

    public Builder entropy(Entropy e) {
      entropy = e;
      return this;
    }

    public Builder crashSeam(CrashSeam c) {
      crash = c;
      return this;
    }

    public Builder workerId(String w) {
      workerId = w;
      return this;
    }

    public Builder leaseTtl(Duration d) {
      leaseTtl = d;
      return this;
    }

    /**
     * The monotonic clock a lease's local validity is counted on (D22). Default: the system's, or
     * one that moves with an injected {@link #clock}.
     */
    public Builder monotonicClock(MonotonicClock m) {
      monotonic = Objects.requireNonNull(m);
      return this;
    }

    /**
     * How long before the TTL, counted from when the grant or renewal request was sent, the runtime
     * stops trusting its lease without asking the store (D22). Default: 20 % of the TTL.
     */
    public Builder leaseMargin(Duration d) {
      leaseMargin = Objects.requireNonNull(d);
      return this;
    }

    /**
     * The secrets redacted from evidence kept in the trace (SPEC D27). Default: every key of the
     * checkpoint ring (trust roots hold public keys only, D19). Pass a registry built with those
     * plus whatever else the process holds (an approver's private key, a service's client secret);
     * {@link SecretRegistry#none()} turns redaction off (tests of the redaction itself only).
     */
    public Builder secrets(SecretRegistry s) {
      secrets = Objects.requireNonNull(s);
      return this;
    }

    /**
     * Reports steps, commits, recoveries, freezes, fenced commits, refused inbox items and lost
     * leases to {@code o} (docs/telemetry.md). Default: {@link RatchetObserver#NONE}, which
     * installs nothing.
     */
    public Builder observer(RatchetObserver o) {
      observer = Objects.requireNonNull(o);
      return this;
    }

    public Ratchet build() {
      return new Ratchet(this);
    }
  }
}
