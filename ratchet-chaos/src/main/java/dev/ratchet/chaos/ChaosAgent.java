package dev.ratchet.chaos;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.RunState;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import java.io.PrintStream;
import java.util.Map;

/**
 * What every chaos worker JVM does to a run and says about it: the deterministic agent of the
 * campaign tasks (writes by the plan cursor, then the verification, then finish) and the event
 * lines the supervisor reads from the worker's stdout.
 */
final class ChaosAgent {
  private static final PrintStream OUT = System.out;

  private ChaosAgent() {}

  /**
   * One step of the deterministic agent on a running run: reconcile a pending write, or the next
   * write by the plan cursor, or the verification, or finish. False when an execution froze.
   */
  static boolean step(Run run, ChaosTasks.Kind kind) {
    return step(run, kind, null);
  }

  /** As {@link #step(Run, ChaosTasks.Kind)}; {@code approver} approves gated writes (or null). */
  static boolean step(Run run, ChaosTasks.Kind kind, ChaosApprover approver) {
    RunState s = run.state();
    if (s.pending() != null) {
      if (approver != null) {
        approver.approvePending(run); // none was consumed before the crash: deliver one
      }
      run.reconcile();
      return true;
    }
    int cursor = (int) s.cursor();
    String id = "s" + cursor + "-" + s.usage().proposals();
    if (cursor < ChaosTasks.WRITES) {
      Map.Entry<String, JsonObject> w = ChaosTasks.write(kind, cursor);
      Proposal p = run.propose(run.action(id, w.getKey(), w.getValue()));
      if (p.kind() == Proposal.Kind.PENDING && approver != null) {
        approver.approvePending(run);
      }
      return p.kind() != Proposal.Kind.PENDING || run.execute(id).kind() != StepOutcome.Kind.FROZEN;
    } else if (cursor == ChaosTasks.WRITES) {
      Map.Entry<String, JsonObject> v = ChaosTasks.verification(kind);
      run.apply(run.action(id, v.getKey(), v.getValue()));
    } else {
      run.apply(run.action(id, "finish", JsonObject.EMPTY));
    }
    return true;
  }

  static void say(String line) {
    synchronized (OUT) {
      OUT.println(line);
      OUT.flush();
    }
  }
}
