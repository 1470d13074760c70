package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.WriteLifecycle;
import dev.ratchet.model.WriteLifecycle.Stage;
import dev.ratchet.model.WriteLifecycle.Step;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.Fence;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Every row of the pending-write lifecycle that records a trace outcome is taken by a real run
 * (recognised from the committed traces while a write is pending); every crash window is the window
 * of a row, so the crash matrix, which fails on a never-injected window, covers the rows that
 * record nothing themselves.
 */
class WriteLifecycleCoverageTest {
  private final Set<Step> seen = EnumSet.noneOf(Step.class);
  private long seed = 1300;

  private void scenario(String[] approvals, BiConsumer<RuntimeFixture, TaskSpec> body) {
    RuntimeFixture f = RuntimeFixture.inMemory(seed++);
    TaskSpec task = f.task(approvals);
    try {
      body.accept(f, task);
    } catch (RuntimeException expected) {
      // Crashes and refusals end some scenarios; the trace is what counts.
    }
    boolean pending = false;
    for (var r : f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 10_000)) {
      TraceEvent e = TraceEvent.fromJson(RecordMac.strip(r), "trace");
      Optional<TraceOutcome> o = Optional.of(e.outcome());
      if (o.isEmpty()) {
        continue;
      }
      for (Step s : WriteLifecycle.TABLE) {
        if (s.outcome() == o.get() && pending == (s.from() != Stage.NO_WRITE)) {
          seen.add(s);
          pending = s.to() != Stage.NO_WRITE && s.to() != Stage.RECEIPT_COMMITTED;
          pending &= s.to() != Stage.FROZEN && s.to() != Stage.RECEIPT_CARRIED;
          break;
        }
      }
    }
  }

  @Test
  void everyRowWithATraceOutcomeIsTakenAndEveryWindowHasARow() {
    // Approval consumed, crash, expired at recovery (awaiting), refreshed, executed.
    scenario(
        new String[] {"write_file"},
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          CrashPlan plan = new CrashPlan();
          Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          f.approvePending(run, task, Duration.ofMinutes(10));
          plan.arm(CrashPoint.AFTER_APPROVAL_COMMIT);
          org.assertj.core.api.Assertions.catchThrowable(() -> run.execute("a1"));
          f.clock.advance(Duration.ofHours(1));
          Run recovered = f.ratchet("w2").resume(task, "run-1", ws);
          f.approvePending(recovered, task, Duration.ofHours(1));
          recovered.reconcile();
          recovered.close(); // the receipt rides on the next commit (D22): closing flushes it
        });
    // The receipt was in memory when the worker died: recovery reconciles it.
    scenario(
        new String[0],
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          CrashPlan plan = new CrashPlan();
          Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          plan.arm(CrashPoint.BEFORE_RECEIPT_COMMIT);
          org.assertj.core.api.Assertions.catchThrowable(() -> run.execute("a1"));
          f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
          f.ratchet("w2").resume(task, "run-1", ws);
        });
    // An unreceipted write started, then the worker died: never re-run, frozen (D23).
    scenario(
        new String[0],
        (f, task) -> {
          UnreceiptedAppend a = new UnreceiptedAppend(f.workspace());
          CrashPlan plan = new CrashPlan();
          Run run = f.ratchet("w1", plan).start(task, "run-1", a);
          run.propose(run.action("a1", "append_file", write("log.txt", "deployed\n")));
          plan.arm(CrashPoint.AFTER_EFFECT_STARTED_COMMIT);
          org.assertj.core.api.Assertions.catchThrowable(() -> run.execute("a1"));
          f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
          f.ratchet("w2").resume(task, "run-1", a);
        });
    // The pre-state no longer holds and there is no receipt: the intent is discarded.
    scenario(
        new String[0],
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", ws);
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          ws.externalWrite("log.txt", "moved\n");
          run.execute("a1");
        });
    // An approver rejects the unapproved write; a second one is withdrawn (ADR 0072).
    scenario(
        new String[] {"write_file"},
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", ws);
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          f.ratchet("approver")
              .deliver(
                  dev.ratchet.Ratchet.sign(
                      dev.ratchet.model.ApprovalRejection.ofPending(
                          "alice", run.state(), task, "no", "reject-1"),
                      f.approverKey));
          org.assertj.core.api.Assertions.catchThrowable(() -> run.execute("a1"));
          run.propose(run.action("a2", "write_file", write("app.py", RuntimeFixture.FIXED)));
          run.withdraw("a2", "approval_expired");
        });
    // The same change found at recovery is drift.
    scenario(
        new String[0],
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", ws);
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          ws.externalWrite("log.txt", "moved\n");
          run.close();
          f.ratchet("w2").resume(task, "run-1", ws);
        });
    // Another intent under the key: conflict.
    scenario(
        new String[0],
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", ws);
          String key =
              run.propose(run.action("a1", "write_file", write("app.py", "x\n")))
                  .action()
                  .idempotencyKey();
          ws.execute(
              intent(ws, "y\n"), key, new Fence("run-1", "intruder", 1), ApprovalBinding.NONE);
          run.execute("a1");
        });
    // A same-intent receipt that does not name the consumed approval.
    scenario(
        new String[] {"write_file"},
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", ws);
          String key =
              run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
                  .action()
                  .idempotencyKey();
          ws.execute(
              intent(ws, RuntimeFixture.FIXED),
              key,
              new Fence("run-1", "intruder", 1),
              ApprovalBinding.NONE);
          f.clock.advance(Duration.ofMinutes(5));
          f.ratchet("w2").resume(task, "run-1", ws);
        });
    // The adapter answers from its own receipt (a retried call under the same key).
    scenario(
        new String[0],
        (f, task) -> {
          InMemoryWorkspace ws = f.workspace();
          Run run = f.ratchet("w1").start(task, "run-1", new Twice(ws));
          run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          run.close();
        });

    List<Step> recorded = WriteLifecycle.TABLE.stream().filter(s -> s.outcome() != null).toList();
    assertThat(seen).containsExactlyInAnyOrderElementsOf(recorded);
    Set<CrashPoint> windows = EnumSet.noneOf(CrashPoint.class);
    for (Step s : WriteLifecycle.TABLE) {
      assertThat(s.outcome() != null || s.window() != null)
          .as("%s records nothing and has no window: nothing could cover it", s)
          .isTrue();
      if (s.window() != null) {
        windows.add(s.window());
      }
    }
    // The fork's windows (D37) are not a write's: the crash matrix's fork rows cover them.
    Set<CrashPoint> all = EnumSet.allOf(CrashPoint.class);
    all.removeAll(
        EnumSet.of(
            CrashPoint.FORK_BEFORE_COMMIT,
            CrashPoint.FORK_AFTER_COMMIT,
            CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT));
    assertThat(windows).containsExactlyInAnyOrderElementsOf(all);
  }

  @Test
  void theLifecycleTableIsInTheStateMachineDoc() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "state-machine.md"));
    assertThat(doc).contains(WriteLifecycle.markdown());
  }

  private static WriteIntent intent(InMemoryWorkspace ws, String content) {
    return new WriteIntent(
        ws.namespace(), "write_file", write("app.py", content), "reversible_write");
  }

  /** Sends every write twice under the same key: the second answer is the adapter's replay. */
  private static final class Twice implements EnvironmentAdapter {
    private final EnvironmentAdapter d;

    Twice(EnvironmentAdapter d) {
      this.d = d;
    }

    @Override
    public String namespace() {
      return d.namespace();
    }

    @Override
    public int adapterVersion() {
      return d.adapterVersion();
    }

    @Override
    public List<ActionSpec> actionSpecs() {
      return d.actionSpecs();
    }

    @Override
    public Observation observe() {
      return d.observe();
    }

    @Override
    public AdapterOutcome execute(
        WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
      d.execute(intent, key, fence, approval);
      return d.execute(intent, key, fence, approval);
    }

    @Override
    public Optional<Receipt> lookup(String key) {
      return d.lookup(key);
    }

    @Override
    public JsonObject read(String kind, JsonObject arguments, Fence fence) {
      return d.read(kind, arguments, fence);
    }

    @Override
    public Verification verify(
        String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
      return d.verify(kind, arguments, verifier, fence);
    }
  }
}
