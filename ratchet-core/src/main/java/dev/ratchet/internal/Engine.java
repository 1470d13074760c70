package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Action;
import dev.ratchet.model.Cause;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.WriteLifecycle;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.CommitRefused;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One run's state machine bound to its store, lease and adapter. Every operation works on a copy of
 * the committed state and ends in exactly one commit: validate the new state, sign it, check the
 * lease, then compare-and-set the generation with the records it appends. A refused commit leaves
 * the committed state untouched and makes the engine stale: it must be resumed again.
 *
 * <p>Not thread-safe: one engine is driven by one worker thread, as one lease implies.
 */
public final class Engine {
  /** Replaced only when a signed migration commits (D37): the run then runs under the new task. */
  private RunContext ctx;

  /** The task's fingerprint, computed once: the invariants compare it on every commit. */
  private String taskFingerprint;

  private Lease lease;
  private long leaseSentNanos;
  private long generation;
  private RunState state;
  private boolean stale;
  private final Map<String, Action> ready = new HashMap<>();
  private final List<JsonObject> unsavedMemory = new ArrayList<>();
  private final EffectGate effects = new EffectGate();

  /**
   * A completed write whose receipt rides on the run's next commit (D22): the state it leads to and
   * the records (receipt, trace) that commit must carry. Null when everything is durable.
   */
  private Carried carried;

  private record Carried(RunState view, Journal journal) {}

  /** What became of each committed action (D32); built on first use, then kept current. */
  private ActionIndex actions;

  Engine(RunContext ctx, HeldLease held, long generation, RunState state) {
    this.ctx = ctx;
    this.taskFingerprint = ctx.task().fingerprint();
    this.lease = held.lease();
    this.leaseSentNanos = held.sentNanos();
    this.generation = generation;
    this.state = state;
  }

  public RunContext ctx() {
    return ctx;
  }

  /**
   * The run's state as its driver sees it: the committed state, or, while a completed write's
   * receipt rides on the next commit (D22), the state that commit will make durable.
   */
  public RunState state() {
    return carried == null ? state : carried.view();
  }

  /**
   * The host's task file (opaque to core) of the signed migration that moved the run to its current
   * task (D37); empty when the run runs under the task it started with, or the migration carried
   * none. One authenticated record lookup.
   */
  public Optional<JsonObject> migratedTaskFile() {
    return Migrations.taskFile(this);
  }

  /** The state of the last durable checkpoint (what the store holds). */
  public RunState committed() {
    return state;
  }

  /** The records of a set riding on the next commit (D22), in order; empty when none ride. */
  public List<StoredRecord> carriedRecords(RecordSet set) {
    if (carried == null) {
      return List.of();
    }
    return carried.journal().records().stream().filter(r -> r.set() == set).toList();
  }

  public long generation() {
    return generation;
  }

  public Lease lease() {
    return lease;
  }

  private final EvidenceSecrets evidence = new EvidenceSecrets();

  /** What evidence is redacted against (D27): see {@link EvidenceSecrets}. */
  dev.ratchet.sign.SecretRegistry evidenceSecrets() {
    return evidence.of(ctx.secrets(), lease);
  }

  /** {@code propose}: see {@link Proposer}. A READY action waits here for {@link #execute}. */
  public Proposal propose(Action action) {
    return propose(action, null);
  }

  /** {@code propose} of an action a decision led to: the cause rides on its commit (D25). */
  public Proposal propose(Action action, Cause cause) {
    Proposal p = new Proposer(this).propose(action, cause);
    if (p.kind() == Proposal.Kind.READY) {
      ready.put(action.actionId(), action);
    }
    return p;
  }

  /** Executes a READY action or the pending write with this action id. */
  public StepOutcome execute(String actionId) {
    Action a = ready.remove(actionId);
    if (a != null) {
      return new ReadyExecutor(this).execute(a);
    }
    return new PendingExecutor(this).execute(actionId);
  }

  /** Reconciles the pending write against the adapter's receipt (the crash windows). */
  public StepOutcome reconcile() {
    if (state.pending() == null) {
      throw RatchetException.contract("nothing is pending: there is nothing to reconcile");
    }
    return new PendingExecutor(this).reconcile(state.pending().action().actionId());
  }

  /** Applies the first valid signed reviewer decision from the inbox. */
  public StepOutcome resolveReview() {
    return new ReviewResolver(this).resolve();
  }

  /** Policy refusals a driver may declare permanent (ADR 0050); others are never the run's end. */
  private static final java.util.Set<ErrorCode> PERMANENT_CAPABLE =
      java.util.EnumSet.of(
          ErrorCode.PERMISSION,
          ErrorCode.CONTRACT,
          ErrorCode.STALE_OBSERVATION,
          ErrorCode.VERIFICATION);

  /**
   * Ends a running run {@code failed} because its driver cannot get past {@code refusal} (ADR
   * 0050): reason {@code refused_<code>}, the code and message traced. Refused while an intent is
   * pending, for a run that is not running, and for codes that are not policy refusals.
   */
  public void failPermanently(RatchetException refusal) {
    if (!PERMANENT_CAPABLE.contains(refusal.code())) {
      throw RatchetException.contract(
          "refusal: " + refusal.code() + " is not a policy refusal that can end a run");
    }
    Op op = begin();
    if (op.b.phase() != Phase.RUNNING) {
      throw RatchetException.contract(
          "run is " + op.b.phase().wireName() + ": only a running run can fail this way");
    }
    if (op.b.pending != null) {
      throw RatchetException.contract("cannot fail while an intent is pending");
    }
    String reason = "refused_" + refusal.code().name().toLowerCase(java.util.Locale.ROOT);
    op.b.stopReason = reason;
    op.transition(
        Transition.PERMANENT_REFUSAL,
        null,
        null,
        JsonObject.builder()
            .put("phase", "failed")
            .put("reason", reason)
            .put("error_code", refusal.code().name())
            .put("message", String.valueOf(refusal.getMessage()))
            .build());
    commit(op);
  }

  /** Adds spend the caller measured (model tokens, API cost) to the cost budget. */
  public void reportCost(long units) {
    if (units < 0) {
      throw RatchetException.contract("cost: must be >= 0");
    }
    Op op = begin();
    op.b.usage = op.b.usage.withCost(op.b.usage.cost() + units);
    op.trace(
        null, null, TraceOutcome.COST_REPORTED, JsonObject.builder().put("units", units).build());
    commit(op);
  }

  /**
   * Buffers a conversation-memory entry (D25); it rides on the run's next commit, whatever that
   * commit is. Lost if the process dies first: the agent may then ask its model again.
   */
  public void remember(JsonObject message) {
    unsavedMemory.add(Objects.requireNonNull(message, "message"));
  }

  /** The action index of the committed trace (D32): built once on first use, then kept current. */
  ActionIndex actions() {
    if (actions == null) {
      actions = ActionIndex.of(this);
    }
    return actions;
  }

  /** The trace events riding on the next commit (D22); empty when none ride. */
  List<TraceEvent> ridingEvents() {
    return carried == null ? List.of() : carried.journal().events();
  }

  /** Every committed record of a set, in order, authenticated against the signed head (D20). */
  public List<JsonObject> records(RecordSet set) {
    return RecordAuth.readAll(ctx.store(), ctx.keys(), state, set);
  }

  /** One operation in progress: a mutable copy of the state and the records it appends. */
  final class Op {
    final Draft b;
    final Journal j;

    /** This commit carries a write's receipt (D22): it reaches the carrying commit's windows. */
    boolean receipt;

    Op() {
      if (carried == null) {
        b = new Draft(state);
        j = new Journal(state.sets(), RecordAuth.sealer(ctx.keys(), state.taskId(), state.runId()));
      } else {
        b = new Draft(carried.view());
        j = carried.journal().copy();
        receipt = true;
      }
    }

    Transition transition;

    /** The context of the task a signed migration moves the run to (D37); null: no migration. */
    RunContext migratingTo;

    /** The decision this operation's proposal came from (D25), named in its trace events. */
    String causeId;

    TraceEvent trace(String actionId, String kind, TraceOutcome outcome, JsonObject detail) {
      if (causeId != null && actionId != null) {
        detail = detail.with("cause_id", new JsonString(causeId));
      }
      return j.trace(
          ctx.nowMs(), b.usage.proposals(), actionId, kind, outcome, b.binding.revision(), detail);
    }

    /**
     * Requests a row of the phase table by name: changes the draft's phase and records the row's
     * trace outcome. The commit checks the row against the committed phase.
     */
    TraceEvent transition(Transition t, String actionId, String kind, JsonObject detail) {
      if (transition != null) {
        throw new RatchetException(
            ErrorCode.INTERNAL, "one commit takes one transition: " + transition + ", then " + t);
      }
      b.enter(t);
      transition = t;
      return trace(actionId, kind, t.outcome(), detail);
    }
  }

  Op begin() {
    if (stale) {
      throw new RatchetException(
          ErrorCode.FENCED,
          "this run handle is stale (a commit was refused): resume the run again");
    }
    return new Op();
  }

  /** Validates, signs and commits the operation's state and records as the next generation. */
  void commit(Op op) {
    for (JsonObject m : unsavedMemory) {
      long seq = op.j.heads().get(RecordSet.MEMORY).count() + 1;
      op.j.append(RecordSet.MEMORY, Long.toString(seq), m);
    }
    RunState next = draft(op);
    Transition t = op.transition;
    if (next.phase() != state.phase()
        && (t == null || t.from() != state.phase() || t.to() != next.phase())) {
      throw new RatchetException(
          ErrorCode.INTERNAL,
          "phase change "
              + state.phase()
              + " -> "
              + next.phase()
              + " ("
              + t
              + ") is not in the table");
    }
    String text = Checkpoint.seal(next, generation + 1, ctx.keys()).text();
    checkLease();
    if (op.receipt) {
      reached(WriteLifecycle.Step.CARRY);
    }
    CommitResult result =
        ctx.store().commit(new CommitRequest(scope(next), generation, lease, text, op.j.records()));
    carried = null; // committed with this request, or lost with it (recovery asks the adapter)
    if (result instanceof CommitResult.Committed c) {
      generation = c.generation();
      state = next;
      if (op.migratingTo != null) {
        ctx = op.migratingTo;
        taskFingerprint = ctx.task().fingerprint();
      }
      if (actions != null) {
        actions.addAll(op.j.events());
      }
      unsavedMemory.clear();
      if (op.receipt) {
        reached(WriteLifecycle.Step.CARRIED);
      }
      return;
    }
    stale = true;
    if (result instanceof CommitResult.LostRace lr) {
      throw new CommitRefused(
          result,
          "lost the race: run "
              + state.runId()
              + " is at generation "
              + lr.currentGeneration()
              + ", not "
              + generation);
    }
    throw new CommitRefused(result, "commit fenced: " + ((CommitResult.Fenced) result).reason());
  }

  /** The operation's state with its journal's heads, checked against the invariants. */
  private RunState draft(Op op) {
    op.b.sets.putAll(op.j.heads());
    RunState next = op.b.build();
    if (op.migratingTo != null) {
      Invariants.check(op.migratingTo, op.migratingTo.task().fingerprint(), next);
    } else {
      Invariants.check(ctx, taskFingerprint, next);
    }
    return next;
  }

  /**
   * Completes a write (D22): its receipt and state advance ride on the run's next commit, which
   * every later operation begins from. Commits now instead when {@code now} (the result of an
   * unreceipted effect, D23) or when the operation changes the phase (a write that ends the run).
   * Returns true when the receipt was carried, false when it was committed.
   */
  boolean carry(Op op, boolean now) {
    op.receipt = true;
    if (now || op.transition != null) {
      commit(op);
      return false;
    }
    carried = new Carried(draft(op), op.j);
    return true;
  }

  /**
   * Makes a carried receipt durable in a commit of its own: before a lease is released (close,
   * wait, yield, drain) and at the end of recovery. A no-op when nothing rides or the handle is
   * stale (then recovery reconciles the write from the adapter's receipt).
   */
  public void flush() {
    if (carried != null && !stale) {
      commit(begin());
    }
  }

  RunScope scope(RunState s) {
    return new RunScope(s.taskId(), s.runId(), s.binding().instanceId());
  }

  /**
   * Revalidates the lease before every commit and adapter call, locally (D22): it holds while the
   * monotonic clock is before the moment the grant or renewal request was sent plus the TTL minus
   * the safety margin. Past half its life (or past that moment, if sooner) it is renewed, a durable
   * write that checks the token and fence; a lost lease is {@code FENCED} there. No read per call:
   * the commit statement re-checks token, fence and generation itself.
   */
  void checkLease() {
    try {
      long ttl = ctx.leaseTtl().toNanos();
      long renewAfter = Math.min(ttl / 2, ttl - ctx.leaseMargin().toNanos());
      if (ctx.monotonic().nanos() - leaseSentNanos >= renewAfter) {
        long sent = ctx.monotonic().nanos();
        lease = ctx.leases().renew(lease, ctx.leaseTtl());
        leaseSentNanos = sent;
      }
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.FENCED) {
        stale = true;
      }
      throw e;
    }
  }

  /** Marks an unreceipted effect running (D23): a lease is not released meanwhile. */
  void effectInFlight(boolean running) {
    effects.set(running);
  }

  /** Waits until no unreceipted effect is in flight (D23); called before a lease is released. */
  public void awaitNoEffectInFlight() {
    effects.awaitIdle();
  }

  /** Reaches the crash window after a step of the pending-write lifecycle, if it has one. */
  void reached(WriteLifecycle.Step step) {
    if (step.window() != null) {
      ctx.crash().reached(step.window());
    }
  }

  Observation observe() {
    checkLease();
    return ctx.adapter().observe();
  }

  /** The live environment, read under a checked lease; commits nothing. */
  public Observation observeLive() {
    return observe();
  }

  /** Closes the run as failed (budget exhaustion); refused while an intent is pending. */
  void fail(Op op, Transition reason) {
    if (op.b.phase().terminal()) {
      return;
    }
    if (op.b.pending != null) {
      throw RatchetException.contract("cannot fail while an intent is pending");
    }
    op.b.stopReason = reason.outcome().wireName();
    op.transition(reason, null, null, JsonObject.EMPTY);
  }

  /** Ends a running run whose proposal budget is spent, unless an intent is pending. */
  void budgetClose(Op op) {
    if (op.b.phase() == Phase.RUNNING
        && op.b.pending == null
        && op.b.usage.proposals() >= ctx.task().budgets().maxProposals()) {
      fail(op, Transition.PROPOSAL_BUDGET);
    }
  }

  /** A record of a set by key, from this operation's journal or the store (by index). */
  boolean has(Op op, RecordSet set, String key) {
    return op.j.containsKey(set, key) || find(set, key).isPresent();
  }

  Optional<StoredRecord> find(RecordSet set, String key) {
    Optional<StoredRecord> r =
        RecordAuth.authenticated(
            ctx.store(),
            ctx.keys(),
            state,
            set,
            key,
            ctx.store().find(state.taskId(), state.runId(), set, key));
    if (r.isPresent() && r.get().sequence() > state.head(set).count()) {
      stale = true;
      throw new RatchetException(
          ErrorCode.FENCED,
          "run " + state.runId() + " was advanced by another worker: resume it again");
    }
    return r;
  }

  /**
   * The run's cached receipt for a key (a rebuildable copy of the adapter's): the one riding on the
   * next commit (D22), else the committed one.
   */
  Optional<Receipt> cachedReceipt(String key) {
    Optional<StoredRecord> riding =
        carriedRecords(RecordSet.RECEIPTS).stream().filter(r -> r.key().equals(key)).findFirst();
    return riding
        .or(() -> find(RecordSet.RECEIPTS, key))
        .map(r -> Receipt.fromJson(RecordAuth.body(r), "receipts[" + key + "]"));
  }

  /** Appends a consumed nonce; the inbox stops listing it once committed (SPEC D12). */
  void consumeNonce(Op op, String nonce, String kind, String envelopeFingerprint) {
    op.j.append(
        RecordSet.NONCES,
        nonce,
        JsonObject.builder()
            .put("nonce", nonce)
            .put("kind", kind)
            .put("envelope_fingerprint", envelopeFingerprint)
            .build());
  }

  long nowMs() {
    return ctx.nowMs();
  }
}
