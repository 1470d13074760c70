package dev.ratchet.worker;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.schedule.Claim;
import dev.ratchet.seam.Seams;
import dev.ratchet.testkit.InMemoryStore;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Core's in-memory store on the system clock (leases lapse in wall-clock time, the worker counts
 * their validity on the system's monotonic clock), the runtime fixture's keys and task, an
 * in-memory workspace, and a {@link RunOpener} that starts or resumes a claimed run under the
 * claimed lease, as {@code ratchet worker} does. The worker reaches the store only through the
 * scheduling SPI, so what these tests show holds for every store the contract admits.
 */
final class WorkerFixture implements AutoCloseable {
  final InMemoryStore store;

  /** What the worker and the runtime use: {@link #store}, every call counted by method. */
  final CountedStore counted;

  final RuntimeFixture f;
  final TaskSpec task;
  final InMemoryWorkspace workspace;
  final ClaimedLeases leases;
  final Ratchet ratchet;
  final List<String> log = new ArrayList<>();

  WorkerFixture(Duration ttl) {
    store = new InMemoryStore(Seams.systemClock());
    counted = new CountedStore(store);
    f = RuntimeFixture.inMemory(5);
    task = f.task();
    workspace = f.workspace();
    leases = new ClaimedLeases(counted.scheduling());
    ratchet =
        Ratchet.builder()
            .store(counted.checkpoints())
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
            claim.firstLease() || store.load(claim.taskId(), claim.runId()).isEmpty()
                ? ratchet.start(task, claim.runId(), workspace)
                : ratchet.resume(task, claim.runId(), workspace);
        return new DriveContext(run, task, claim.taskRef(), draining);
      } finally {
        leases.forget(claim.runId());
      }
    };
  }

  /** The opener, told (as ratchet worker's is) when the worker released a finished run's lease. */
  RunOpener releasingOpener() {
    RunOpener open = opener();
    return new RunOpener() {
      @Override
      public DriveContext open(Claim claim, java.util.function.BooleanSupplier draining) {
        return open.open(claim, draining);
      }

      @Override
      public void released(dev.ratchet.store.Lease lease) {
        leases.released(lease);
      }
    };
  }

  Worker worker(Driver driver, WorkerOptions options) {
    return new Worker(
        counted.scheduling(),
        Seams.systemMonotonic(),
        releasingOpener(),
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
