package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.StoredRun;

/**
 * A source run for fork tests (D37): two receipted writes ({@code a1}, {@code a2}) and a read, then
 * a permanent refusal ends it {@code failed}; and the signed fork decisions made from it.
 */
final class ForkFixture {
  final RuntimeFixture f;
  final TaskSpec task;
  final InMemoryWorkspace ws;

  ForkFixture(long seed) {
    f = RuntimeFixture.inMemory(seed);
    task = f.task();
    ws = f.workspace();
  }

  /** Runs the source {@code runId} to {@code failed} after two writes and a read. */
  void failedSource(String runId) {
    try (Run run = f.ratchet("w-src").start(task, runId, ws)) {
      run.apply(run.action("a1", "write_file", write("app.py", "v1\n")));
      run.apply(run.action("a2", "write_file", write("log.txt", "v1\n")));
      run.apply(run.action("a3", "read_file", Scenarios.read("app.py")));
      run.fail(RatchetException.contract("the plan cannot get past this"));
    }
  }

  StoredRun stored(String runId) {
    return f.store.load(task.taskId(), runId).orElseThrow();
  }

  /** The oldest retained generation of {@code runId} whose plan cursor is {@code step}. */
  long generationAt(String runId, long step) {
    for (long g = 1; g <= stored(runId).generation(); g++) {
      var env = f.store.retained(task.taskId(), runId, g);
      if (env.isPresent() && Checkpoint.open(env.get(), f.keyRing).state().cursor() == step) {
        return g;
      }
    }
    throw new IllegalStateException("no retained generation at step " + step);
  }

  /** A fork of {@code source} from the generation {@code fromGeneration} into {@code newRunId}. */
  ForkDecision decision(String source, long fromGeneration, String newRunId, String nonce) {
    RunState s = f.ratchet("w-v").verify(task, source, ws);
    long step =
        Checkpoint.open(
                f.store.retained(task.taskId(), source, fromGeneration).orElseThrow(), f.keyRing)
            .state()
            .cursor();
    return ForkDecision.of(
        f.operatorKey.label(),
        s,
        task,
        stored(source).generation(),
        fromGeneration,
        step,
        task,
        newRunId,
        ws.observe(),
        "rerun after the fix",
        nonce);
  }

  SignedDecision signed(ForkDecision d, SigningKey key) {
    return Ratchet.sign(d, key);
  }

  Run fork(Ratchet r, String source, SignedDecision signed) {
    return r.fork(task, source, signed, task, ws);
  }
}
