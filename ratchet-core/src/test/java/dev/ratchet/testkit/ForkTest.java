package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * D37 (ADR 0130): a fork of a failed run starts from the source's state at the signed step, replays
 * a write whose action id and intent digest equal a receipted write of the source from that receipt
 * (nothing sent, the use mark on the proposal's commit), mints a new key for the same action with
 * another intent, re-runs reads, and is refused for a running source, a generation the store no
 * longer retains and an environment that changed since the fork was signed. A canary that hides the
 * inherited receipts makes the workspace count the write twice.
 */
class ForkTest {
  private final ForkFixture x = new ForkFixture(71);

  @Test
  void aForkReplaysTheSourcesReceiptedWriteAndSendsOnlyWhatIsNew() {
    x.failedSource("src");
    assertThat(x.ws.ledger()).hasSize(2);
    long from = x.generationAt("src", 0);
    ForkDecision d = x.decision("src", from, "fork-1", "fork-n1");

    try (Run run = x.fork(x.f.ratchet("w-fork"), "src", x.signed(d, x.f.operatorKey))) {
      assertThat(run.state().runId()).isEqualTo("fork-1");
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.state().cursor()).isZero();
      TraceEvent forked = run.trace().get(0);
      assertThat(forked.outcome().wireName()).isEqualTo("forked");
      assertThat(forked.detail().toString())
          .contains("\"source_run_id\":\"src\"")
          .contains("\"inherited_receipts\":2")
          .contains(d.sourceTaskDigest());

      Proposal p = run.propose(run.action("a1", "write_file", write("app.py", "v1\n")));
      assertThat(p.kind()).isEqualTo(Proposal.Kind.REPLAYED);
      assertThat(x.ws.ledger()).as("replayed from the inherited receipt: nothing sent").hasSize(2);
      assertThat(run.state().cursor()).isEqualTo(1);
      assertThat(x.f.store.find(x.task.taskId(), "fork-1", RecordSet.INHERITED, "used:a1"))
          .as("the use mark rode on the proposal's commit")
          .isPresent();

      // The same action with another intent: a new intent, a new key, sent once.
      Proposal changed = run.propose(run.action("a2", "write_file", write("log.txt", "v2\n")));
      assertThat(changed.kind()).isEqualTo(Proposal.Kind.PENDING);
      run.execute(changed);
      assertThat(x.ws.ledger()).hasSize(3);
      assertThat(x.ws.files().get("log.txt")).isEqualTo("v2\n");

      // Reads re-run.
      assertThat(run.apply(run.action("a3", "read_file", Scenarios.read("app.py"))).kind().name())
          .isEqualTo("EXECUTED");
      // A receipt is used at most once: the action id is burned with its use mark.
      assertThatThrownBy(() -> run.propose(run.action("a1", "write_file", write("app.py", "v1\n"))))
          .isInstanceOf(RatchetException.class)
          .hasMessageContaining("already used");
    }
    assertThat(x.stored("src").generation())
        .as("the source is never written")
        .isEqualTo(d.sourceGeneration());
  }

  @Test
  void theCanaryThatHidesTheInheritedReceiptsSendsTheWriteAgain() {
    x.failedSource("src");
    ForkDecision d = x.decision("src", x.generationAt("src", 0), "fork-c", "fork-n2");
    HidingInherited hiding = new HidingInherited(x.f.store);
    var canary = x.f.builder("w-canary", dev.ratchet.seam.CrashSeam.NONE).store(hiding).build();
    try (Run run = x.fork(canary, "src", x.signed(d, x.f.operatorKey))) {
      Proposal p = run.propose(run.action("a1", "write_file", write("app.py", "v1\n")));
      assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
      run.execute(p);
    }
    assertThat(x.ws.ledger()).as("the canary sends a1 a second time").hasSize(3);
  }

  @Test
  void aRunningSourceIsRefused() {
    x.f.ratchet("w1").start(x.task, "live", x.ws).close();
    ForkDecision d = x.decision("live", x.stored("live").generation(), "fork-r", "fork-n3");
    assertThatThrownBy(() -> x.fork(x.f.ratchet("w2"), "live", x.signed(d, x.f.operatorKey)))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("is running: only a terminal (failed, cancelled, completed), paused");
    assertThat(x.f.store.load(x.task.taskId(), "fork-r")).isEmpty();
  }

  @Test
  void aGenerationTheStoreNoLongerRetainsIsRefusedWithThatReason() {
    x.failedSource("src");
    ForkDecision d = x.decision("src", x.generationAt("src", 0), "fork-g", "fork-n4");
    ((InMemoryStore) x.f.store).forgetOlder(x.task.taskId(), "src");
    assertThatThrownBy(() -> x.fork(x.f.ratchet("w2"), "src", x.signed(d, x.f.operatorKey)))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("is no longer retained by the store");
    assertThat(x.f.store.load(x.task.taskId(), "fork-g")).isEmpty();
  }

  @Test
  void aForkSignedAgainstAnotherEnvironmentIsRefused() {
    x.failedSource("src");
    ForkDecision d = x.decision("src", x.generationAt("src", 0), "fork-e", "fork-n5");
    x.ws.externalWrite("other.txt", "changed since the operator signed\n");
    assertThatThrownBy(() -> x.fork(x.f.ratchet("w2"), "src", x.signed(d, x.f.operatorKey)))
        .isInstanceOf(RatchetException.class)
        .satisfies(
            e -> assertThat(((RatchetException) e).code()).isEqualTo(ErrorCode.STALE_OBSERVATION))
        .hasMessageContaining("sign the fork again");
    assertThat(x.f.store.load(x.task.taskId(), "fork-e")).isEmpty();
  }

  @Test
  void theSameForkAppliedTwiceCreatesItsRunOnce() {
    x.failedSource("src");
    var signed =
        x.signed(x.decision("src", x.generationAt("src", 0), "fork-2", "fork-n6"), x.f.operatorKey);
    x.fork(x.f.ratchet("w1"), "src", signed).close();
    assertThatThrownBy(() -> x.fork(x.f.ratchet("w2"), "src", signed))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("already exists");
    List<TraceEvent> trace;
    try (Run run = x.f.ratchet("w3").resume(x.task, "fork-2", x.ws)) {
      trace = run.trace();
    }
    assertThat(trace).hasSize(1);
  }

  /** The canary (SPEC D18): a store that never finds a forked run's inherited receipts. */
  static final class HidingInherited extends ForwardingCheckpointStore {
    HidingInherited(dev.ratchet.store.CheckpointStore delegate) {
      super(delegate);
    }

    @Override
    public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
      return set == RecordSet.INHERITED ? Optional.empty() : super.find(taskId, runId, set, key);
    }
  }
}
