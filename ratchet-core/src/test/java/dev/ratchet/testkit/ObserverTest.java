package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.store.Fence;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The telemetry SPI: the runtime reports each kind of event at the point it happens. */
class ObserverTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(77);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();
  private final Recording seen = new Recording();

  private Ratchet observed(String workerId) {
    return observed(workerId, f.leases);
  }

  private Ratchet observed(String workerId, LeaseStore leases) {
    return Ratchet.builder()
        .store(f.store)
        .leases(leases)
        .checkpointKeys(f.keyRing)
        .approvers(f.approvers)
        .reviewers(f.reviewers)
        .clock(f.clock)
        .entropy(f.entropy)
        .workerId(workerId)
        .leaseTtl(RuntimeFixture.LEASE_TTL)
        .observer(seen)
        .build();
  }

  @Test
  void aWriteReportsItsProposalCommitsAndAdapterCallsAsSteps() {
    Run run = observed("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    run.flush(); // the receipt rides on the run's next commit (D22); flushing makes it generation 3
    assertThat(seen.steps)
        .anyMatch(s -> s.kind() == Step.Kind.PROPOSE && "a1".equals(s.actionId()));
    assertThat(seen.steps)
        .filteredOn(s -> s.kind() == Step.Kind.COMMIT)
        .extracting(Step::generation)
        .containsSubsequence(1L, 2L, 3L);
    assertThat(seen.steps)
        .filteredOn(s -> s.kind() == Step.Kind.ADAPTER_CALL)
        .extracting(Step::name)
        .contains("observe", "execute");
    assertThat(seen.steps).allMatch(s -> s.runId().equals("run-1") && s.outcome().equals("ok"));
    assertThat(seen.events)
        .contains("traced run-1 a1 accepted_pending", "traced run-1 a1 executed");
  }

  @Test
  void aConflictReportsAFreezeARefusedDecisionAndTheRecovery() {
    Run run = observed("w1").start(task, "run-1", ws);
    Proposal p = run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    String key = p.action().idempotencyKey();
    ws.execute(
        new WriteIntent(ws.namespace(), "write_file", write("app.py", "x\n"), "reversible_write"),
        key,
        new Fence("run-1", "intruder", 1),
        ApprovalBinding.NONE);
    run.execute("a1");
    assertThat(seen.events).contains("frozen run-1 idempotency_conflict");
    // A decision signed with the approver's key is refused, and the refusal reported with its
    // reason.
    f.deliverDecision(
        run.state(),
        f.decision(run, task, ReviewDecision.REPLAN, ws.observe().revision()),
        f.approverKey);
    catchThrowable(run::resolveReview);
    assertThat(seen.events).anyMatch(e -> e.startsWith("refused run-1 "));
    f.clock.advance(RuntimeFixture.LEASE_TTL.multipliedBy(2));
    observed("w2").resume(task, "run-1", ws);
    assertThat(seen.events).contains("recovered run-1 needs_review nothing");
    assertThat(seen.steps).anyMatch(s -> s.kind() == Step.Kind.RECOVERY);
    // Nothing reported carries the idempotency key or an argument value.
    assertThat(seen.events.toString() + seen.steps).doesNotContain(key).doesNotContain("print(");
  }

  @Test
  void aLateWorkerReportsItsLostLease() {
    Run a = observed("w1", f.leases).start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    observed("w2", f.leases).resume(task, "run-1", ws);
    assertThat(seen.events).doesNotContain("lease_lost run-1");
    catchThrowable(() -> a.execute("a1"));
    assertThat(seen.events).contains("lease_lost run-1");
  }

  @Test
  void aCommitUnderAStaleFenceIsReportedAsFenced() {
    // Leases that never refuse a renewal: the store's own fence check is what refuses the commit.
    LeaseStore blind = new LyingLeases(f.leases);
    Run a = observed("w1", blind).start(task, "run-1", ws);
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    observed("w2", f.leases).resume(task, "run-1", ws);
    assertThat(seen.events).doesNotContain("fenced run-1");
    catchThrowable(() -> a.propose(a.action("a1", "write_file", write("app.py", "z\n"))));
    assertThat(seen.events).contains("fenced run-1");
    assertThat(seen.steps).anyMatch(s -> s.kind() == Step.Kind.COMMIT && !s.outcome().equals("ok"));
  }

  @Test
  void theDefaultObserverInstallsNothing() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    assertThat(seen.steps).isEmpty();
    assertThat(seen.events).isEmpty();
  }

  /** Records every call as text (events) or as the step itself. */
  static final class Recording implements RatchetObserver {
    final List<Step> steps = new ArrayList<>();
    final List<String> events = new ArrayList<>();

    @Override
    public void step(Step step) {
      steps.add(step);
    }

    @Override
    public void traced(String runId, String actionId, String outcome) {
      events.add("traced " + runId + " " + actionId + " " + outcome);
    }

    @Override
    public void recovered(String runId, Recovery.Found found, Recovery.Did did) {
      events.add("recovered " + runId + " " + found + " " + did);
    }

    @Override
    public void frozen(String runId, String reason) {
      events.add("frozen " + runId + " " + reason);
    }

    @Override
    public void fenced(String runId) {
      events.add("fenced " + runId);
    }

    @Override
    public void inboxRefused(String runId, String reason) {
      events.add("refused " + runId + " " + reason);
    }

    @Override
    public void leaseLost(String runId) {
      events.add("lease_lost " + runId);
    }
  }
}
