package dev.ratchet.harness.demo;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.Entropy;
import dev.ratchet.store.InboxItem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * The demo's worker process, run by {@link DemoWorkerMain} in a child JVM: starts or resumes one
 * run through the library's front door and follows its plan, with a crash seam armed at one {@link
 * CrashPoint} where the process dies for real. It reports to the parent on stdout, one event per
 * line: {@code RECOVERY <json>}, {@code STEP <text>}, {@code AWAITING <action id>}, {@code CRASH
 * <point>} and finally {@code EXIT <code> <summary>}.
 */
final class DemoWorker {
  static final String RECOVERY = "RECOVERY ";
  static final String STEP = "STEP ";
  static final String AWAITING = "AWAITING ";
  static final String EXIT = "EXIT ";
  private static final long POLL_MS = 25;
  private static final long AWAIT_LIMIT_MS = 60_000;

  /** What the parent asks of one worker. */
  record Options(
      DemoHome home,
      Path taskFile,
      String runId,
      boolean start,
      CrashPoint crashAt,
      boolean canary,
      long leaseTtlMs,
      String workerId) {}

  private final Options o;
  private final PrintWriter out;
  private final InstantSource clock;
  private final Entropy entropy;

  DemoWorker(Options o, PrintWriter out, InstantSource clock, Entropy entropy) {
    this.o = o;
    this.out = out;
    this.clock = clock;
    this.entropy = entropy;
  }

  int call() {
    HaltingSeam seam = new HaltingSeam(o.crashAt(), out);
    DemoTask tf = DemoTask.read(o.taskFile());
    try (JdbcStore store = o.home().store(clock, o.start(), seam)) {
      EnvironmentAdapter real =
          tf.adapter(o.start(), new AdapterProvider.Context(clock, entropy, seam));
      EnvironmentAdapter adapter =
          o.canary()
              ? new KeyChangingCanary(real, Long.toString(ProcessHandle.current().pid()))
              : real;
      Ratchet ratchet =
          o.home()
              .ratchet(
                  store, o.workerId(), Duration.ofMillis(o.leaseTtlMs()), seam, clock, entropy);
      Run run =
          o.start() ? ratchet.start(tf.task(), o.runId(), adapter) : recover(ratchet, tf, adapter);
      Recovery recovery = o.start() ? null : run.recovery();
      seam.arm();
      Map<String, Integer> waits = new HashMap<>();
      int resumes = 0;
      while (true) {
        DemoAgent.Result r;
        try {
          r = new DemoAgent(run, tf.plan(), line -> line(STEP + line)).drive(recovery);
        } catch (RatchetException e) {
          // A lease lost while working (a slow machine, a long wait): resume, as any worker would.
          if (e.code() != ErrorCode.FENCED || ++resumes > 3) {
            throw e;
          }
          run.close();
          run = recover(ratchet, tf, adapter);
          recovery = run.recovery();
          continue;
        }
        recovery = null;
        if (r.stop() == DemoAgent.Stop.AWAITING_APPROVAL) {
          String actionId = run.state().pending().action().actionId();
          if (waits.merge(actionId, 1, Integer::sum) <= 2) {
            line(AWAITING + actionId);
            awaitApproval(store, run.state(), actionId);
            continue;
          }
        }
        run.close();
        line(EXIT + r.exitCode() + " " + r.summary());
        return r.exitCode();
      }
    }
  }

  /** Verifies, then resumes (waiting out a dead worker's lease) and reports the recovery. */
  private Run recover(Ratchet ratchet, DemoTask tf, EnvironmentAdapter adapter) {
    RunState before = ratchet.verify(tf.task(), o.runId(), adapter);
    long deadline = clock.millis() + o.leaseTtlMs() + 10_000;
    while (true) {
      try {
        Run run = ratchet.resume(tf.task(), o.runId(), adapter);
        report(before, run.recovery());
        return run;
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.FENCED || clock.millis() > deadline) {
          throw e;
        }
        sleep(POLL_MS);
      }
    }
  }

  private void report(RunState before, Recovery r) {
    JsonObject.Builder b =
        JsonObject.builder()
            .put("generation", r.generation())
            .put("found", r.found().wireName())
            .put("did", r.did().wireName())
            .put(
                "pending_action_id",
                before.pending() == null ? null : before.pending().action().actionId());
    if (r.outcome() != null && r.outcome().review() != null) {
      b.put("review_reason", r.outcome().review().reason());
    }
    line(RECOVERY + Canonical.string(b.build()));
  }

  private void awaitApproval(JdbcStore store, RunState s, String actionId) {
    long deadline = clock.millis() + AWAIT_LIMIT_MS;
    while (clock.millis() < deadline) {
      for (InboxItem item : store.inbox(s.taskId(), s.runId())) {
        if (item.kind() == InboxItem.Kind.APPROVAL && actionId.equals(approvedAction(item))) {
          return;
        }
      }
      sleep(POLL_MS);
    }
    throw RatchetException.approval("no approval for " + actionId + " arrived within a minute");
  }

  /** The action an inbox approval names (its signature is the runtime's to check, not ours). */
  private static String approvedAction(InboxItem item) {
    try {
      SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "inbox");
      return Approval.fromJson(env.payload(), "approval").actionId();
    } catch (RatchetException e) {
      return null;
    }
  }

  private void line(String s) {
    out.println(s);
    out.flush();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "worker interrupted");
    }
  }
}
