package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import org.junit.jupiter.api.Test;

/** SPEC D6: checkpoint cost does not grow with the run's history. */
class FlatCostTest {
  @Test
  @Rules("R1.13-trace")
  void checkpointBytesAtStepTenThousandAreWithinTenPercentOfStepTen() {
    RuntimeFixture f = RuntimeFixture.inMemory(61);
    TaskSpec task = f.task(new Budgets(30_000, 20_000, 86_400_000L, 1));
    InMemoryWorkspace ws = f.workspace();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    int atTen = 0;
    for (int i = 1; i <= 10_000; i++) {
      run.apply(run.action("a" + i, "read_file", read("app.py")));
      if (i == 10) {
        atTen = checkpointBytes(f, task);
      }
    }
    int atTenThousand = checkpointBytes(f, task);
    assertThat(run.state().usage().steps()).isEqualTo(10_000);
    assertThat((double) atTenThousand).isBetween(atTen * 0.9, atTen * 1.1);
  }

  private static int checkpointBytes(RuntimeFixture f, TaskSpec task) {
    return f.store.load(task.taskId(), "run-1").orElseThrow().envelope().text().length();
  }
}
