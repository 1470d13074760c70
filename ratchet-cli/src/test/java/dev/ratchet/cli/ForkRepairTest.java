package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.ScheduledRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42 (ADR 0130's window "after the fork's commit, before scheduling"): a fork that committed
 * its new run and stopped before scheduling it leaves a run no worker claims. {@code ratchet fork}
 * with the same source, step and new run id schedules that run (once; a second call is refused and
 * changes nothing); an existing run that is not that fork stays refused, naming the rule.
 */
class ForkRepairTest {
  @TempDir Path dir;
  private MemoryHarness h;
  private Path task;

  @BeforeEach
  void setUp() {
    h = new MemoryHarness(dir, 142);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("operator", "olga");
    task = h.taskFile("t.json", "", MemoryHarness.PLAN);
    MemoryHarness.Result r = h.run("run", task.toString(), "--run-id", "r1");
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
  }

  @Test
  void theSameForkAppliedAgainSchedulesTheRunAnEarlierForkLeftUnscheduledExactlyOnce() {
    // The window: the new run's first commit is made, the scheduling never happens.
    MemoryHarness.Result cut =
        h.runWithoutScheduling("fork", "r1", "--run-id", "f1", "--operator", "olga");
    assertThat(cut.exit()).as(cut.out() + cut.err()).isZero();
    assertThat(rows("f1")).as("the window: committed, not scheduled").isEmpty();
    long generation = h.store.load("repair-greeting", "f1").orElseThrow().generation();

    MemoryHarness.Result repair = h.run("fork", "r1", "--run-id", "f1", "--operator", "olga");
    assertThat(repair.exit()).as(repair.out() + repair.err()).isZero();
    assertThat(repair.out())
        .contains(
            "fork: f1 already exists, forked from r1 by an earlier 'ratchet fork' that did not"
                + " schedule it; scheduled it for workers");
    assertThat(rows("f1")).hasSize(1);
    assertThat(rows("f1").get(0).state()).isEqualTo("runnable");
    assertThat(h.store.load("repair-greeting", "f1").orElseThrow().generation())
        .as("the run is not written")
        .isEqualTo(generation);

    MemoryHarness.Result again = h.run("fork", "r1", "--run-id", "f1", "--operator", "olga");
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err()).contains("--run-id: run 'f1' already exists and has a scheduling row");
    assertThat(rows("f1")).as("a second call changes nothing").hasSize(1);
    assertThat(h.store.load("repair-greeting", "f1").orElseThrow().generation())
        .isEqualTo(generation);
  }

  @Test
  void anExistingRunThatIsNotThatForkStaysRefused() {
    // A run that is no fork at all, unscheduled (made by 'run').
    MemoryHarness.Result r = h.run("run", task.toString(), "--run-id", "r2");
    assertThat(r.exit()).isZero();
    MemoryHarness.Result other = h.run("fork", "r1", "--run-id", "r2", "--operator", "olga");
    assertThat(other.exit()).isEqualTo(2);
    assertThat(other.err())
        .contains("--run-id: run 'r2' already exists")
        .contains("is not 'forked': it is no fork");
    assertThat(rows("r2")).isEmpty();

    // A fork of r1 left unscheduled, asked again from another source: refused, not scheduled.
    assertThat(h.runWithoutScheduling("fork", "r1", "--run-id", "f2", "--operator", "olga").exit())
        .isZero();
    MemoryHarness.Result wrongSource = h.run("fork", "r2", "--run-id", "f2", "--operator", "olga");
    assertThat(wrongSource.exit()).isEqualTo(2);
    assertThat(wrongSource.err())
        .contains("--run-id: run 'f2' already exists and was forked with source_run_id r1, not r2");
    // ...or from another step of the same source.
    MemoryHarness.Result wrongStep =
        h.run("fork", "r1", "--from-step", "3", "--run-id", "f2", "--operator", "olga");
    assertThat(wrongStep.exit()).as(wrongStep.out() + wrongStep.err()).isEqualTo(2);
    assertThat(wrongStep.err()).contains("run 'f2' already exists and was forked with from_");
    assertThat(rows("f2")).as("nothing scheduled by a refusal").isEmpty();
  }

  private List<ScheduledRun> rows(String runId) {
    return h.store.scheduled().stream().filter(s -> s.runId().equals(runId)).toList();
  }
}
