package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Budgets (reference-behaviour §2.2, SPEC §10): every exhausted budget stops the run with a reason.
 */
class BudgetTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(51);
  private final InMemoryWorkspace ws = f.workspace();

  private static void assertTerminal(Throwable t) {
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.TERMINAL);
  }

  @Test
  @Rules({"R2.2-proposal-budget", "R2.2-budget-close"})
  void theLastAllowedReadClosesTheRunAsFailed() {
    TaskSpec task = f.task(new Budgets(3, 3, 3_600_000, 100));
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "read_file", read("app.py")));
    run.apply(run.action("a2", "read_file", read("app.py")));
    run.apply(run.action("a3", "read_file", read("app.py")));
    assertThat(run.state().phase()).isEqualTo(Phase.FAILED);
    assertThat(run.state().stopReason()).isEqualTo("proposal_budget_exhausted");
    assertTerminal(
        catchThrowable(() -> run.propose(run.action("a4", "read_file", read("app.py")))));
  }

  @Test
  @Rules("R2.2-step-budget")
  void theStepBudgetFailsTheRunAtItsCap() {
    TaskSpec task = f.task(new Budgets(10, 2, 3_600_000, 100));
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "read_file", read("app.py")));
    run.apply(run.action("a2", "read_file", read("app.py")));
    assertTerminal(catchThrowable(() -> run.apply(run.action("a3", "read_file", read("app.py")))));
    assertThat(run.state().stopReason()).isEqualTo("step_budget_exhausted");
  }

  @Test
  @Rules("R2.2-wall-time")
  void wallTimeCountsDowntimeAndFailsTheRun() {
    TaskSpec task = f.task(new Budgets(10, 10, 60_000, 100));
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "read_file", read("app.py")));
    f.clock.advance(Duration.ofMinutes(2));
    Run again = f.ratchet("w2").resume(task, "run-1", ws);
    assertTerminal(
        catchThrowable(() -> again.propose(again.action("a2", "read_file", read("app.py")))));
    assertThat(again.state().stopReason()).isEqualTo("wall_time_exhausted");
  }

  @Test
  @Rules("R2.2-cost")
  void reportedCostPastTheCapFailsTheRun() {
    TaskSpec task = f.task(new Budgets(10, 10, 3_600_000, 100));
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.reportCost(60);
    run.apply(run.action("a1", "read_file", read("app.py")));
    run.reportCost(60);
    assertTerminal(
        catchThrowable(() -> run.propose(run.action("a2", "read_file", read("app.py")))));
    assertThat(run.state().stopReason()).isEqualTo("cost_budget_exhausted");
  }
}
