package dev.ratchet.testkit;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A complete, seeded runtime setup for tests: a manual clock, keys and trust roots, the teaching
 * task ("repair-greeting") on the in-memory workspace, and helpers that sign and deliver approvals
 * and reviewer decisions the way an operator would. The store is supplied, so the same scenarios
 * run on memory, SQLite and PostgreSQL.
 */
public final class RuntimeFixture {
  public static final String BROKEN = "print('hello'\n";
  public static final String FIXED = "print('ready')\n";
  public static final Duration LEASE_TTL = Duration.ofSeconds(30);

  public final ManualClock clock;
  public final SeededEntropy entropy;
  public final CheckpointStore store;
  public final LeaseStore leases;
  public final SecretKey checkpointKey;
  public final KeyRing keyRing;
  public final SigningKey approverKey;
  public final TrustRoot approvers;
  public final SigningKey reviewerKey;
  public final TrustRoot reviewers;
  public final SigningKey operatorKey;
  public final TrustRoot operators;

  private java.util.function.Consumer<CrashSeam> storeCrashHook = seam -> {};

  /** Lets a store that has a split window (content, then mark) take the crash seam. */
  public RuntimeFixture onStoreCrashSeam(java.util.function.Consumer<CrashSeam> hook) {
    this.storeCrashHook = hook;
    return this;
  }

  public void storeCrashSeam(CrashSeam seam) {
    storeCrashHook.accept(seam);
  }

  public RuntimeFixture(long seed, ManualClock clock, CheckpointStore store, LeaseStore leases) {
    this.clock = clock;
    this.entropy = new SeededEntropy(seed);
    this.store = store;
    this.leases = leases;
    this.checkpointKey =
        SecretKey.of("ckpt-1", entropy.bytes(32), dev.ratchet.error.ErrorCode.CHECKPOINT);
    this.keyRing = KeyRing.of(checkpointKey);
    this.approverKey = SigningKey.of("alice", Ed25519.generate(entropy));
    this.approvers = TrustRoot.approvers(List.of(approverKey.trusted()));
    this.reviewerKey = SigningKey.of("rita", Ed25519.generate(entropy));
    this.reviewers = TrustRoot.reviewers(List.of(reviewerKey.trusted()));
    // Its own entropy, so adding the operator changes no other seeded value.
    this.operatorKey = SigningKey.of("olga", Ed25519.generate(new SeededEntropy(~seed)));
    this.operators = TrustRoot.operators(List.of(operatorKey.trusted()));
  }

  /** An in-memory fixture on a fresh {@link InMemoryStore}. */
  public static RuntimeFixture inMemory(long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    InMemoryStore s = new InMemoryStore(clock);
    return new RuntimeFixture(seed, clock, s, s);
  }

  /** The teaching task: fix app.py, run the tests, finish; approvals on the given kinds. */
  public TaskSpec task(String... approvalRequired) {
    return task(new Budgets(500, 100, 86_400_000L, 1_000_000), approvalRequired);
  }

  public TaskSpec task(Budgets budgets, String... approvalRequired) {
    return new TaskSpec(
        "repair-greeting",
        "2026-07-18-v1",
        "environment-policy",
        "v1",
        InMemoryWorkspace.NAMESPACE,
        Set.of("workspace.read", "workspace.write", "tests.run"),
        Set.of("read_file", "write_file", "append_file", "run_tests"),
        Set.of("app.py", "log.txt", "unit"),
        Set.of(approvalRequired),
        budgets,
        JsonObject.builder()
            .put("files", JsonObject.builder().put("app.py", BROKEN).build())
            .build(),
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put("app.py", FIXED).build())
            .build());
  }

  public InMemoryWorkspace workspace() {
    return new InMemoryWorkspace("ws-" + entropy.hex128(), clock, Map.of("app.py", BROKEN));
  }

  public Ratchet ratchet(String workerId) {
    return ratchet(workerId, CrashSeam.NONE);
  }

  public Ratchet ratchet(String workerId, CrashSeam seam) {
    return builder(workerId, seam).build();
  }

  /** The builder {@link #ratchet(String, CrashSeam)} builds, for a test that adds to it. */
  public Ratchet.Builder builder(String workerId, CrashSeam seam) {
    return Ratchet.builder()
        .store(store)
        .leases(leases)
        .checkpointKeys(keyRing)
        .approvers(approvers)
        .reviewers(reviewers)
        .operators(operators)
        .clock(clock)
        .entropy(entropy)
        .crashSeam(seam)
        .workerId(workerId)
        .leaseTtl(LEASE_TTL);
  }

  /** Signs a cancel of run {@code runId} with {@code key} and delivers it (issue 17). */
  public SignedEnvelope deliverCancel(TaskSpec task, String runId, SigningKey key, String nonce) {
    dev.ratchet.model.SignedDecision signed =
        dev.ratchet.model.SignedDecision.sign(
            new dev.ratchet.model.CancelRequest(
                key.label(),
                dev.ratchet.model.DecisionBinding.run(
                    task.taskId(), runId, task.policyId(), task.policyVersion()),
                "stop it",
                nonce),
            key);
    deliverUnchecked(signed);
    return signed.envelope();
  }

  /**
   * Puts {@code signed} into its run's inbox without the front door's trust check (as any store
   * writer could): what a test of the worker's own refusals needs.
   */
  public void deliverUnchecked(dev.ratchet.model.SignedDecision signed) {
    store.deliver(signed.decision().taskId(), signed.decision().runId(), signed.inboxItem());
  }

  /** An envelope put into run {@code runId}'s inbox as it is, unchecked. */
  public void deliverUnchecked(
      String taskId, String runId, String nonce, InboxItem.Kind kind, SignedEnvelope env) {
    store.deliver(taskId, runId, new InboxItem(nonce, kind, Canonical.string(env.toJson())));
  }

  /** Signs an operator's pause or unpause of the run with {@code key} and delivers it (D37). */
  public SignedEnvelope deliverPause(
      dev.ratchet.model.PauseDecision.Kind decision,
      TaskSpec task,
      String runId,
      SigningKey key,
      String nonce) {
    dev.ratchet.model.SignedDecision signed =
        dev.ratchet.model.SignedDecision.sign(
            new dev.ratchet.model.PauseDecision(
                decision,
                key.label(),
                dev.ratchet.model.DecisionBinding.run(
                    task.taskId(), runId, task.policyId(), task.policyVersion()),
                "maintenance window",
                nonce),
            key);
    deliverUnchecked(signed);
    return signed.envelope();
  }

  /** Signs an approval of the run's pending write, valid for {@code ttl}, and delivers it. */
  public SignedEnvelope approvePending(Run run, TaskSpec task, Duration ttl) {
    RunState s = run.state();
    Approval a =
        Approval.ofPending(
            "alice",
            s,
            task,
            s.usage().proposals() + 100,
            clock.millis() + ttl.toMillis(),
            "nonce-" + entropy.hex128());
    return deliverApproval(s, a, approverKey);
  }

  public SignedEnvelope deliverApproval(RunState s, Approval a, SigningKey key) {
    SignedEnvelope env = sign(a.toJson(), key);
    store.deliver(
        s.taskId(),
        s.runId(),
        new InboxItem(a.nonce(), InboxItem.Kind.APPROVAL, Canonical.string(env.toJson())));
    return env;
  }

  /** A reviewer decision exactly bound to the open case and the live environment. */
  public ReviewDecision decision(Run run, TaskSpec task, String decision, long revision) {
    RunState s = run.state();
    ReviewCase c = s.review();
    return new ReviewDecision(
        "rita",
        new dev.ratchet.model.DecisionBinding(
            s.taskId(),
            s.runId(),
            task.policyId(),
            task.policyVersion(),
            c.pending() == null ? null : c.pending().action().actionId(),
            c.pending() == null ? null : c.pending().key(),
            c.pending() == null ? null : c.pending().intentDigest()),
        c.caseId(),
        c.observedReceipt() == null ? null : c.observedReceipt().intentDigest(),
        c.observedReceiptFingerprint(),
        c.observation().instanceId(),
        revision,
        decision,
        "nonce-" + entropy.hex128());
  }

  public SignedEnvelope deliverDecision(RunState s, ReviewDecision d, SigningKey key) {
    SignedEnvelope env = sign(d.toJson(), key);
    store.deliver(
        s.taskId(),
        s.runId(),
        new InboxItem(d.nonce(), InboxItem.Kind.REVIEW_DECISION, Canonical.string(env.toJson())));
    return env;
  }

  /**
   * Asserts that {@code o} is a write waiting for its approval (a value, never an exception: D32)
   * and returns what it says about the inbox (each refused item with its nonce and reason).
   */
  public static String awaitingWhy(dev.ratchet.outcome.StepOutcome o) {
    org.assertj.core.api.Assertions.assertThat(o)
        .isInstanceOf(dev.ratchet.outcome.StepOutcome.AwaitingApproval.class);
    return ((dev.ratchet.outcome.StepOutcome.AwaitingApproval) o).why();
  }

  /** {@code payload} signed with {@code key}'s Ed25519 private key, as an operator would. */
  public static SignedEnvelope sign(JsonObject payload, SigningKey key) {
    return SignedEnvelope.sign(payload, key);
  }
}
