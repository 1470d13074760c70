package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashPoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The crash matrix (SPEC §11, D10, D18, D22): every {@link CrashPoint} × every write of a
 * three-write scenario × {no approval, approval required, approval expired by recovery}; the
 * windows of a commit carrying a write's receipt × {the run's next commit, a flush}. Each cell
 * crashes for real at its point (the runtime object is abandoned, its lease is never released),
 * recovers in a fresh runtime object from the store alone, and drives the run to completion. Every
 * write's effect count in the workspace's own ledger must be exactly 1, the appended file must show
 * each append once, and the run must complete verified. Subclasses supply the store.
 */
public abstract class CrashMatrixContract {
  static final List<JsonObject> WRITES =
      List.of(
          write("app.py", RuntimeFixture.FIXED),
          write("log.txt", "first\n"),
          write("log.txt", "second\n"));
  static final List<String> WRITE_KINDS = List.of("write_file", "append_file", "append_file");

  /** A fresh fixture whose store is the one under test. */
  protected abstract RuntimeFixture fixture(long seed);

  /**
   * The windows of a batched commit (ADR 0141): reached only when several runs commit in one call,
   * which a one-run cell never does; {@code PostgresBatchedCommitCrashTest} (in-process) and {@code
   * BatchedCommitKillTest} (killed JVMs) crash in them.
   */
  public static final Set<CrashPoint> BATCHED_COMMIT_WINDOWS =
      EnumSet.of(CrashPoint.STORE_BEFORE_BATCHED_COMMIT, CrashPoint.STORE_AFTER_BATCHED_COMMIT);

  /** The crash points this store can reach (a single-database store has no split window). */
  protected Set<CrashPoint> points() {
    Set<CrashPoint> out = EnumSet.complementOf(EnumSet.copyOf(BATCHED_COMMIT_WINDOWS));
    out.remove(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    return out;
  }

  /** Every window a one-run cell can reach: all but the batched commit's. */
  protected static Set<CrashPoint> allButBatched() {
    return EnumSet.complementOf(EnumSet.copyOf(BATCHED_COMMIT_WINDOWS));
  }

  /**
   * The windows of an unreceipted write (D23): a crash there must freeze the run, not complete it,
   * so they have their own test below instead of the exactly-once cells.
   */
  static final Set<CrashPoint> UNRECEIPTED_WINDOWS =
      EnumSet.of(CrashPoint.AFTER_EFFECT_STARTED_COMMIT, CrashPoint.UNRECEIPTED_RESULT_HELD);

  /** A fork's windows (D37, ADR 0130): their own rows below. */
  static final Set<CrashPoint> FORK_WINDOWS =
      EnumSet.of(
          CrashPoint.FORK_BEFORE_COMMIT,
          CrashPoint.FORK_AFTER_COMMIT,
          CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT);

  enum Approvals {
    NONE,
    REQUIRED,
    EXPIRED
  }

  /**
   * Which commit carries the crashed write's receipt (D22): the run's next one (the next write's
   * intent, or the verification's read after the last write), or a flush before the lease goes.
   */
  enum Carrier {
    NEXT,
    FLUSH
  }

  /** The windows of a commit that carries a receipt: armed once the write's outcome returned. */
  static boolean carrying(CrashPoint point) {
    return point == CrashPoint.INSIDE_CARRYING_COMMIT || point == CrashPoint.AFTER_RECEIPT_COMMIT;
  }

  /** What one cell saw; {@code problems} is empty when every check held. */
  public record Cell(String name, boolean crashed, List<String> problems) {}

  @Test
  @Rules({"R4.7-crash-matrix", "R4.2-recovery", "R2.3.7-reconcile", "R2.3.7-execute-once"})
  void everyCrashPointInEveryWriteRecoversWithEachEffectExactlyOnce() {
    List<String> failures = new ArrayList<>();
    Set<CrashPoint> injected = EnumSet.noneOf(CrashPoint.class);
    long seed = 1000;
    Set<CrashPoint> receipted = EnumSet.copyOf(points());
    receipted.removeAll(UNRECEIPTED_WINDOWS);
    receipted.removeAll(FORK_WINDOWS);
    for (CrashPoint point : receipted) {
      for (int write = 0; write < WRITES.size(); write++) {
        for (Approvals mode : Approvals.values()) {
          if (point == CrashPoint.AFTER_APPROVAL_COMMIT && mode == Approvals.NONE) {
            continue; // no approval is consumed without an approval policy
          }
          for (Carrier carrier : Carrier.values()) {
            if (carrier == Carrier.FLUSH && !carrying(point)) {
              continue; // only the windows of a commit that carries a receipt have two carriers
            }
            Cell cell = runCell(seed++, point, write, mode, false, carrier);
            if (cell.crashed()) {
              injected.add(point);
            } else {
              failures.add(cell.name() + ": the crash was never injected");
            }
            cell.problems().forEach(p -> failures.add(cell.name() + ": " + p));
          }
        }
      }
    }
    assertThat(failures).isEmpty();
    assertThat(injected).containsExactlyInAnyOrderElementsOf(receipted);
  }

  /**
   * D23 (ADR 0071): the appends are declared unreceipted; a crash in each window of such a write
   * (mark committed; inside the effect; result held) freezes the run {@code uncertain_effect} at
   * recovery, and the effect ran at most once and is never run again.
   */
  @Test
  void everyUnreceiptedWindowFreezesUncertainAndTheEffectNeverRunsTwice() {
    List<String> failures = new ArrayList<>();
    Set<CrashPoint> injected = EnumSet.noneOf(CrashPoint.class);
    Set<CrashPoint> windows = EnumSet.copyOf(UNRECEIPTED_WINDOWS);
    windows.add(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    long seed = 5000;
    for (CrashPoint point : windows) {
      for (int write = 1; write < WRITES.size(); write++) {
        RuntimeFixture f = fixture(seed++);
        TaskSpec task = f.task();
        InMemoryWorkspace ws = f.workspace();
        UnreceiptedAppend adapter = new UnreceiptedAppend(ws);
        CrashPlan plan = new CrashPlan();
        ws.crashSeam(plan);
        String name = point + "/write" + (write + 1);
        String runId = "run-" + seed;
        try {
          drive(
              f,
              task,
              f.ratchet("worker-1", plan).start(task, runId, adapter),
              null,
              plan,
              point,
              write,
              Carrier.NEXT);
          failures.add(name + ": the crash was never injected");
        } catch (SimulatedCrash c) {
          injected.add(point);
        }
        plan.disarm();
        int effects = ws.ledger().size();
        f.clock.advance(Duration.ofMinutes(1));
        Run recovered = f.ratchet("worker-2", plan).resume(task, runId, adapter);
        if (recovered.state().phase() != Phase.NEEDS_REVIEW
            || !"uncertain_effect".equals(recovered.state().stopReason())) {
          failures.add(name + ": recovery left " + recovered.state().phase());
        }
        if (ws.ledger().size() != effects || Set.copyOf(ws.ledger()).size() != effects) {
          failures.add(name + ": an effect ran again at recovery");
        }
      }
    }
    assertThat(failures).isEmpty();
    Set<CrashPoint> expected = EnumSet.copyOf(windows);
    expected.retainAll(points());
    assertThat(injected).containsAll(expected);
  }

  /**
   * The fork's rows (D37, ADR 0130 windows 3 and 5): a source makes two writes and fails; a fork
   * from step 0 crashes before its first commit, inside it (a split store, between content and
   * mark), after it, or while replaying an inherited receipt; recovery applies the same signed fork
   * again (refused once the run exists, which is then resumed) and drives the plan to completion.
   * The workspace's ledger must show each of the three writes once: the two inherited ones are
   * replayed, never sent again.
   */
  @Test
  void everyForkWindowRecoversAndNoInheritedWriteIsSentAgain() {
    List<String> failures = new ArrayList<>();
    Set<CrashPoint> windows = EnumSet.copyOf(FORK_WINDOWS);
    if (points().contains(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK)) {
      windows.add(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    }
    long seed = 7000;
    for (CrashPoint point : windows) {
      Cell cell = runForkCell(seed++, point, false);
      if (!cell.crashed()) {
        failures.add(cell.name() + ": the crash was never injected");
      }
      cell.problems().forEach(p -> failures.add(cell.name() + ": " + p));
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void theForkCanaryThatDropsInheritedReceiptsMakesTheForkRowsFail() {
    Cell cell = runForkCell(7100, CrashPoint.FORK_AFTER_COMMIT, true);
    assertThat(cell.crashed()).isTrue();
    assertThat(cell.problems()).anyMatch(p -> p.startsWith("ledger shows"));
  }

  /** One fork row: source, fork with a crash at {@code point}, recovery, completion, counts. */
  public Cell runForkCell(long seed, CrashPoint point, boolean canary) {
    String name = "fork/" + point + (canary ? "/canary" : "");
    RuntimeFixture f = fixture(seed);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    CrashPlan plan = new CrashPlan();
    ws.crashSeam(plan);
    f.storeCrashSeam(plan);
    String source = "src-" + seed;
    String fork = "fork-" + seed;
    try (Run run = f.ratchet("worker-0", plan).start(task, source, ws)) {
      for (int w = 0; w < 2; w++) {
        String id = "step-" + w + "-" + run.state().usage().proposals();
        run.execute(run.propose(run.action(id, WRITE_KINDS.get(w), WRITES.get(w))));
      }
      run.fail(dev.ratchet.error.RatchetException.contract("the source stops after two writes"));
    }
    dev.ratchet.model.SignedDecision signed = ForkRows.signedFork(f, task, ws, source, fork);
    dev.ratchet.store.CheckpointStore store =
        canary ? new ForkRows.DroppingInherited(f.store) : f.store;
    List<String> problems = new ArrayList<>();
    boolean crashed = false;
    try {
      if (point != CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT) {
        plan.arm(point);
      }
      Run run =
          f.builder("worker-1", plan).store(store).build().fork(task, source, signed, task, ws);
      plan.arm(point);
      drive(f, task, run, null, plan, null, -1, Carrier.NEXT);
    } catch (SimulatedCrash c) {
      crashed = true;
    } catch (RuntimeException e) {
      problems.add("before the crash: " + e);
    }
    plan.disarm();
    f.clock.advance(Duration.ofMinutes(1)); // the crashed worker's lease lapses
    try {
      dev.ratchet.Ratchet again = f.builder("worker-2", plan).store(store).build();
      Run recovered;
      if (f.store.load(task.taskId(), fork).isEmpty()) {
        recovered = again.fork(task, source, signed, task, ws);
      } else {
        try {
          again.fork(task, source, signed, task, ws).close();
          problems.add("the same fork created its run twice");
        } catch (dev.ratchet.error.RatchetException expected) {
          // the run exists: a fork creates its run once
        }
        f.clock.advance(Duration.ofMinutes(1));
        recovered = again.resume(task, fork, ws);
      }
      drive(f, task, recovered, null, plan, null, -1, Carrier.NEXT);
      requireCompleted(recovered, problems);
    } catch (RuntimeException e) {
      problems.add("recovery: " + e);
    }
    requireEachWriteOnce(ws, problems);
    return new Cell(name, crashed, problems);
  }

  @Test
  @Rules("R4.7-crash-matrix")
  void theCanaryThatChangesKeysMakesTheMatrixFail() {
    Cell cell = runCell(77, CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT, 1, Approvals.NONE, true);
    assertThat(cell.problems()).isNotEmpty();
  }

  /** One cell: drive until the armed crash, recover in a fresh runtime, finish, check. */
  public Cell runCell(long seed, CrashPoint point, int write, Approvals mode, boolean canary) {
    return runCell(seed, point, write, mode, canary, Carrier.NEXT);
  }

  /** {@link #runCell(long, CrashPoint, int, Approvals, boolean)} with the receipt's carrier. */
  public Cell runCell(
      long seed, CrashPoint point, int write, Approvals mode, boolean canary, Carrier carrier) {
    String name =
        point
            + "/write"
            + (write + 1)
            + "/"
            + mode
            + (carrying(point) ? "/" + carrier : "")
            + (canary ? "/canary" : "");
    RuntimeFixture f = fixture(seed);
    TaskSpec task = mode == Approvals.NONE ? f.task() : f.task("write_file", "append_file");
    InMemoryWorkspace ws = f.workspace();
    EnvironmentAdapter adapter = canary ? new KeyChangingAdapter(ws) : ws;
    CrashPlan plan = new CrashPlan();
    ws.crashSeam(plan);
    f.storeCrashSeam(plan);
    List<String> problems = new ArrayList<>();
    boolean crashed = false;
    Run run = f.ratchet("worker-1", plan).start(task, "run-" + seed, adapter);
    try {
      drive(f, task, run, mode, plan, point, write, carrier);
    } catch (SimulatedCrash c) {
      crashed = true;
    } catch (RuntimeException e) {
      problems.add("before the crash: " + e);
    }
    plan.disarm();
    // The crashed worker never releases its lease: the recoverer waits for it to expire.
    f.clock.advance(mode == Approvals.EXPIRED ? Duration.ofHours(2) : Duration.ofMinutes(1));
    try {
      Run recovered = f.ratchet("worker-2", plan).resume(task, "run-" + seed, adapter);
      drive(f, task, recovered, mode, plan, null, -1, Carrier.NEXT);
      requireCompleted(recovered, problems);
    } catch (RuntimeException e) {
      problems.add("recovery: " + e);
    }
    requireEachWriteOnce(ws, problems);
    return new Cell(name, crashed, problems);
  }

  private static void requireCompleted(Run recovered, List<String> problems) {
    if (recovered.state().phase() != Phase.COMPLETED) {
      problems.add(
          "run ended " + recovered.state().phase() + " (" + recovered.state().stopReason() + ")");
    }
  }

  /** The workspace's own ledger shows each write once, the appended file each append once. */
  private static void requireEachWriteOnce(InMemoryWorkspace ws, List<String> problems) {
    List<String> keys = ws.ledger();
    if (keys.size() != WRITES.size() || Set.copyOf(keys).size() != WRITES.size()) {
      problems.add(
          "ledger shows " + keys.size() + " effects for " + Set.copyOf(keys).size() + " keys");
    }
    if (!"first\nsecond\n".equals(ws.files().get("log.txt"))) {
      problems.add("log.txt is " + ws.files().get("log.txt"));
    }
  }

  /**
   * A deterministic agent: the plan cursor says which step is next, a pending write is reconciled
   * (approved first when policy needs it), and the armed crash fires at the chosen write.
   */
  static void drive(
      RuntimeFixture f,
      TaskSpec task,
      Run run,
      Approvals mode,
      CrashPlan plan,
      CrashPoint point,
      int crashAtWrite,
      Carrier carrier) {
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 50) {
      if (run.state().pending() != null) {
        approveIfNeeded(f, task, run, mode);
        run.reconcile();
        continue;
      }
      int cursor = (int) run.state().cursor();
      String id = "step-" + cursor + "-" + run.state().usage().proposals();
      if (cursor < WRITES.size()) {
        if (cursor == crashAtWrite && !carrying(point)) {
          plan.arm(point);
        }
        Proposal p = run.propose(run.action(id, WRITE_KINDS.get(cursor), WRITES.get(cursor)));
        if (p.kind() == Proposal.Kind.PENDING) {
          approveIfNeeded(f, task, run, mode);
          StepOutcome o = run.execute(id);
          if (o.kind() == StepOutcome.Kind.FROZEN) {
            return;
          }
        }
        if (cursor == crashAtWrite && carrying(point)) {
          // This write's receipt rides on the next commit (D22): crash in the one carrying it.
          plan.arm(point);
          if (carrier == Carrier.FLUSH) {
            run.flush();
          }
        }
      } else if (cursor == WRITES.size()) {
        run.apply(run.action(id, "run_tests", JsonObject.builder().put("target", "unit").build()));
      } else {
        run.apply(run.action(id, "finish", JsonObject.EMPTY));
      }
    }
  }

  private static void approveIfNeeded(RuntimeFixture f, TaskSpec task, Run run, Approvals mode) {
    if (mode == null || mode == Approvals.NONE) {
      return;
    }
    var evidence = run.state().pending().approval();
    if (evidence != null
        && Approval.fromJson(evidence.payload(), "approval").expiresAtMs() > f.clock.millis()) {
      return;
    }
    Duration ttl = mode == Approvals.EXPIRED ? Duration.ofMinutes(30) : Duration.ofHours(24);
    f.approvePending(run, task, ttl);
  }

  private static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }
}
