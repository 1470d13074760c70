package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's library example, kept compiling and true: the block between the markers. */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void theReadmeExampleRunsToAVerifiedFinishWithTheWriteDoneOnce() {
    RuntimeFixture f = RuntimeFixture.inMemory(7);
    TaskSpec task = f.task();
    InMemoryWorkspace workspace = f.workspace();
    var keys = f.keyRing;
    var approvers = f.approvers;
    var reviewers = f.reviewers;
    JsonObject fix =
        JsonObject.builder().put("path", "app.py").put("content", "print('ready')\n").build();
    // README example begins
    JdbcStore store =
        JdbcStore.open(
            Database.sqlite(dir.resolve("ratchet.db")),
            StoreOptions.defaults(java.time.InstantSource.system()).withOpenMode(OpenMode.CREATE));
    Ratchet ratchet =
        Ratchet.builder()
            .store(store)
            .leases(store)
            .checkpointKeys(keys)
            .approvers(approvers)
            .reviewers(reviewers)
            .workerId("worker-1")
            .build();
    try (Run run = ratchet.start(task, "run-1", workspace)) {
      Proposal p = run.propose(run.action("a1", "write_file", fix)); // intent + key durable first
      run.execute(p); // once, even across crashes
      run.observe(); // re-stamp after outside changes
      run.apply(run.action("a2", "run_tests", JsonObject.builder().put("target", "unit").build()));
      run.apply(run.action("a3", "finish", JsonObject.EMPTY)); // against the verifier only
    }
    try (Run run = ratchet.resume(task, "run-1", workspace)) { // after a crash, anywhere
      Recovery recovery = run.recovery(); // found / did, as enums
      List<TraceEvent> trace = run.trace(); // the signed, chained history
      // README example ends
      assertThat(recovery.found()).isEqualTo(Recovery.Found.COMPLETED);
      assertThat(recovery.did()).isEqualTo(Recovery.Did.NOTHING);
      assertThat(trace).extracting(e -> e.outcome().wireName()).endsWith("completed");
    }
    assertThat(workspace.ledger()).hasSize(1);
    assertThat(ratchet.verify(task, "run-1", workspace).phase()).isEqualTo(Phase.COMPLETED);
    store.close();
  }
}
