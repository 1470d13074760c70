package dev.ratchet.worker;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real SQLite store on the system clock (leases lapse in wall-clock time), the runtime fixture's
 * keys and task, an in-memory workspace, and a {@link RunOpener} that starts or resumes a claimed
 * run under the claimed lease, as {@code ratchet worker} does.
 */
final class SqliteWorkerFixture implements AutoCloseable {
  final JdbcStore store;
  final RuntimeFixture f;
  final TaskSpec task;
  final InMemoryWorkspace workspace;
  final ClaimedLeases leases;
  final Ratchet ratchet;
  final List<String> log = new ArrayList<>();

  SqliteWorkerFixture(Path file, Duration ttl) {
    store =
        JdbcStore.open(
            Database.sqlite(file),
            StoreOptions.defaults(Clock.systemUTC())
                .withOpenMode(OpenMode.CREATE)
                .withBusyTimeout(Duration.ofMillis(50)));
    f = RuntimeFixture.inMemory(5);
    task = f.task();
    workspace = f.workspace();
    leases = new ClaimedLeases(store);
    ratchet =
        Ratchet.builder()
            .store(store)
            .leases(leases)
            .checkpointKeys(f.keyRing)
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .operators(f.operators)
            .clock(f.clock)
            .entropy(f.entropy)
            .workerId("w1")
            .leaseTtl(ttl)
            .build();
  }

  RunOpener opener() {
    return (claim, draining) -> {
      leases.hand(claim.lease());
      try {
        Run run =
            store.load(claim.taskId(), claim.runId()).isEmpty()
                ? ratchet.start(task, claim.runId(), workspace)
                : ratchet.resume(task, claim.runId(), workspace);
        return new DriveContext(run, task, claim.taskRef(), draining);
      } finally {
        leases.forget(claim.runId());
      }
    };
  }

  Worker worker(Driver driver, WorkerOptions options) {
    return new Worker(
        store,
        opener(),
        Map.of(driver.name(), driver),
        options,
        line -> {
          synchronized (log) {
            log.add(line);
          }
        });
  }

  List<String> lines() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
