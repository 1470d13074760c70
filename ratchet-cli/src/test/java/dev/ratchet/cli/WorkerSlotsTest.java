package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker with several slots on SQLite opens its store with group commit (issue 16, ADR 0043): one
 * writer thread commits the queued commits of its runs in one transaction and one fsync. The runs
 * finish as with one slot.
 */
class WorkerSlotsTest {
  @TempDir Path dir;

  @Test
  void aWorkerWithFourSlotsOnSqliteOpensItsStoreWithGroupCommitAndFinishesItsRuns()
      throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("slots"))).keys();
    Path key = c.operator("olga");
    for (String run : new String[] {"a", "b", "c"}) {
      Path task = c.exampleTask(run, null);
      ProcessCli.Result submit =
          c.run("submit", "" + task, "--run-id", "r-" + run, "--operator-key", "" + key);
      assertThat(submit.exit()).as(submit.all()).isZero();
    }
    ProcessCli.Result worker =
        c.run("worker", "--worker-id", "w4", "--concurrency", "4", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err()).contains("worker w4: 4 slots, group commit on");
    for (String run : new String[] {"a", "b", "c"}) {
      assertThat(worker.err()).contains("run r-" + run + ": ended");
      ProcessCli.Result status = c.run("status", "r-" + run);
      assertThat(status.out()).as(status.all()).contains("completed");
    }
  }
}
