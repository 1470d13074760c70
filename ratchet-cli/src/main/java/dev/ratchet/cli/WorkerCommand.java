package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.cli.internal.Driver;
import dev.ratchet.cli.internal.HaltingSeam;
import dev.ratchet.cli.internal.KeyChangingCanary;
import dev.ratchet.cli.internal.Services;
import dev.ratchet.cli.internal.Session;
import dev.ratchet.cli.internal.StoreFactory;
import dev.ratchet.cli.internal.TaskFile;
import dev.ratchet.cli.internal.TaskRegistry;
import dev.ratchet.cli.internal.Views;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.RunState;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The demo's worker process, run by {@link DemoWorkerMain} in a child JVM (not a {@code ratchet}
 * subcommand: {@code ratchet worker} is the name of the coming worker service): starts or resumes
 * one run and follows its plan, with a crash seam armed at one {@link CrashPoint} where the process
 * dies for real. It reports to the parent on stdout, one event per line: {@code RECOVERY <json>},
 * {@code STEP <text>}, {@code AWAITING <action id>}, {@code CRASH <point>} and finally {@code EXIT
 * <code> <summary>}.
 */
@Command(name = "demo-worker", description = "Demo worker process (internal to ratchet demo).")
final class WorkerCommand extends CliCommand {
  static final String RECOVERY = "RECOVERY ";
  static final String STEP = "STEP ";
  static final String AWAITING = "AWAITING ";
  static final String EXIT = "EXIT ";
  private static final long POLL_MS = 25;
  private static final long AWAIT_LIMIT_MS = 60_000;

  @Mixin CommonOptions common;

  @Option(names = "--run-id", required = true)
  String runId;

  @Option(
      names = "--start",
      paramLabel = "TASK.json",
      description = "Start the run from this file.")
  Path start;

  @Option(names = "--crash-at", paramLabel = "POINT")
  CrashPoint crashAt;

  @Option(names = "--canary", description = "Change idempotency keys at the adapter (D18).")
  boolean canary;

  @Option(names = "--await-approval", description = "Wait for approvals in the inbox.")
  boolean awaitApproval;

  @Option(names = "--lease-ttl-ms", defaultValue = "30000")
  long leaseTtlMs;

  @Option(names = "--worker-id")
  String workerId;

  WorkerCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    HaltingSeam seam = new HaltingSeam(crashAt, out());
    StoreFactory.Mode mode =
        start != null ? StoreFactory.Mode.CREATE : StoreFactory.Mode.MUST_EXIST;
    try (Session session = Session.open(services, common.settings(null), mode, seam)) {
      TaskFile tf =
          start != null
              ? TaskFile.load(start, services.adapters())
              : session.taskFor(session.find(runId));
      EnvironmentAdapter real = Session.adapter(services, tf, start != null, seam);
      EnvironmentAdapter adapter =
          canary ? new KeyChangingCanary(real, Long.toString(ProcessHandle.current().pid())) : real;
      Ratchet ratchet = session.ratchet(Workers.id(workerId), Duration.ofMillis(leaseTtlMs), seam);
      Run run;
      Recovery recovery = null;
      if (start != null) {
        TaskRegistry.record(session.home(), runId, tf);
        run = ratchet.start(tf.task(), runId, adapter);
      } else {
        run = recover(ratchet, tf, adapter);
        recovery = run.recovery();
      }
      seam.arm();
      Map<String, Integer> waits = new HashMap<>();
      int resumes = 0;
      while (true) {
        Driver.Result r;
        try {
          r = new Driver(run, tf.plan(), line -> line(STEP + line)).drive(recovery);
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
        if (r.stop() == Driver.Stop.AWAITING_APPROVAL && awaitApproval) {
          String actionId = run.state().pending().action().actionId();
          if (waits.merge(actionId, 1, Integer::sum) <= 2) {
            line(AWAITING + actionId);
            awaitApproval(session, run.state(), actionId);
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
  private Run recover(Ratchet ratchet, TaskFile tf, EnvironmentAdapter adapter) {
    RunState before = ratchet.verify(tf.task(), runId, adapter);
    Run run = resumeWhenFree(ratchet, tf, adapter);
    report(before, run.recovery());
    return run;
  }

  private void line(String s) {
    out().println(s);
    out().flush();
  }

  private void report(RunState before, Recovery r) {
    JsonObject.Builder b =
        JsonObject.builder()
            .put("generation", r.generation())
            .put("found", r.found().wireName())
            .put("did", r.did().wireName())
            .put(
                "pending_action_id",
                before.pending() == null ? null : before.pending().action().actionId())
            .put("pending_key", before.pending() == null ? null : before.pending().key());
    if (r.outcome() != null && r.outcome().review() != null) {
      b.put("review_reason", r.outcome().review().reason());
    }
    line(RECOVERY + Canonical.string(b.build()));
  }

  /** Resumes, waiting while a killed worker's lease has not expired yet (a recoverer's wait). */
  private Run resumeWhenFree(Ratchet ratchet, TaskFile tf, EnvironmentAdapter adapter) {
    long deadline = services.clock().millis() + leaseTtlMs + 10_000;
    while (true) {
      try {
        return ratchet.resume(tf.task(), runId, adapter);
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.FENCED || services.clock().millis() > deadline) {
          throw e;
        }
        sleep(POLL_MS);
      }
    }
  }

  private void awaitApproval(Session session, RunState s, String actionId) {
    long deadline = services.clock().millis() + AWAIT_LIMIT_MS;
    while (services.clock().millis() < deadline) {
      for (InboxItem item : session.store().inbox(s.taskId(), s.runId())) {
        if (item.kind() == InboxItem.Kind.APPROVAL
            && actionId.equals(Views.text(Views.inboxItem(item), "action_id"))) {
          return;
        }
      }
      sleep(POLL_MS);
    }
    throw new RatchetException(
        ErrorCode.APPROVAL, "no approval for " + actionId + " arrived within a minute");
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
