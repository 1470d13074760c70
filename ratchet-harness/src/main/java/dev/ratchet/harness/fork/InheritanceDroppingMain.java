package dev.ratchet.harness.fork;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.Driver;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The fork canary (SPEC D18, D37): drives a forked run exactly as {@code ratchet resume RUN} does,
 * but over a store that never finds the run's inherited receipts, so a write the source already
 * made is sent again under the fork's own key. With it the reference ledger must count that order
 * twice; a check that still counts one proves nothing. {@code java -cp <the ratchet jar>
 * dev.ratchet.harness.fork.InheritanceDroppingMain --home H RUN}. A harness entry point: {@code
 * ratchet fork} and {@code resume} have no such option.
 */
public final class InheritanceDroppingMain {
  private InheritanceDroppingMain() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    int code;
    try {
      code = drive(Path.of(args[1]), args[2], out);
    } catch (RatchetException e) {
      out.println("error: " + e.getMessage());
      code = e.code().exitCode();
    }
    out.flush();
    System.exit(code);
  }

  private static int drive(Path home, String runId, PrintWriter out) {
    Services services = Services.standard();
    dev.ratchet.ops.Settings settings =
        new dev.ratchet.ops.Settings(home, null, null, java.util.List.of(), null, null, null, null);
    try (Session session =
        Session.open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
      CheckpointStore.RunRef ref = session.find(runId);
      TaskFile tf = session.taskFor(ref);
      Ratchet ratchet =
          Ratchet.builder()
              .store(new DroppingInherited(session.store()))
              .leases(session.leases())
              .checkpointKeys(session.keys())
              .approvers(session.approvers())
              .reviewers(session.reviewers())
              .operators(session.operators())
              .clock(services.clock())
              .entropy(services.entropy())
              .workerId("canary-" + ProcessHandle.current().pid())
              .build();
      try (Run run = ratchet.resume(tf.task(), runId, session.adapter(tf, false))) {
        Driver.Result r = new Driver(run, tf.plan(), out::println).drive(run.recovery());
        out.println("canary run " + runId + ": " + r.stop() + " " + r.summary());
        return r.exitCode();
      }
    }
  }

  /** Never finds a record of the inherited set: the fork forgets what its source did. */
  private static final class DroppingInherited extends ForwardingCheckpointStore {
    DroppingInherited(CheckpointStore delegate) {
      super(delegate);
    }

    @Override
    public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
      return set == RecordSet.INHERITED ? Optional.empty() : super.find(taskId, runId, set, key);
    }
  }
}
