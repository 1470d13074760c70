package dev.ratchet.bench;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.testkit.InMemoryWorkspace;

/**
 * One run driven by one thread at a time: each {@link #writeStep} is one agent write step, {@code
 * Run.apply} of a {@code write_file} (propose: the intent with its minted key is committed;
 * execute: the adapter writes, the receipt and the state advance are committed).
 */
final class Driver {
  private final BenchStore env;
  private final String runId;
  private final InMemoryWorkspace ws;
  private final String filler;
  private Run run;
  private long steps;

  Driver(BenchStore env, String runId, InMemoryWorkspace ws, Run run, int contentChars) {
    this.env = env;
    this.runId = runId;
    this.ws = ws;
    this.run = run;
    this.filler = "x".repeat(contentChars);
  }

  void writeStep() {
    String id = "w" + steps;
    JsonObject args =
        JsonObject.builder()
            .put("path", BenchStore.PATH)
            .put("content", steps + ":" + filler)
            .build();
    StepOutcome out = run.apply(run.action(id, "write_file", args));
    if (out.kind() != StepOutcome.Kind.EXECUTED) {
      throw new IllegalStateException("write step " + id + " of " + runId + ": " + out.kind());
    }
    steps++;
  }

  long steps() {
    return steps;
  }

  long traceLength() {
    return run.state().head(RecordSet.TRACE).count();
  }

  /**
   * One authenticated lookup as the runtime makes it (D20): a trace record by key through the
   * store's index, then its record MAC checked under the checkpoint key ring.
   */
  void lookup(long sequence) {
    String taskId = env.task.taskId();
    StoredRecord r =
        env.store
            .find(taskId, runId, RecordSet.TRACE, Long.toString(sequence))
            .orElseThrow(() -> new IllegalStateException("trace #" + sequence + " is missing"));
    RecordMac.open(env.keys, taskId, runId, r);
  }

  /**
   * What became of write step {@code step} ({@code Run.outcomeOf}, D32): the run's in-memory index
   * of its authenticated trace, built on the first call after a resume.
   */
  void outcomeOf(long step) {
    if (!run.outcomeOf("w" + step).orElseThrow().done()) {
      throw new IllegalStateException("write step w" + step + " of " + runId + " is not done");
    }
  }

  /** Releases the lease; the run stays at its last checkpoint (what a clean shutdown leaves). */
  void suspend() {
    run.close();
  }

  /** Recovers the run in this runtime from the store, the task and the keys alone. */
  void resume() {
    run = env.ratchet.resume(env.task, runId, ws);
    if (run.recovery() == null
        || run.recovery().found() != dev.ratchet.outcome.Recovery.Found.CLEAN) {
      throw new IllegalStateException("recovery of " + runId + " was not clean: " + run.recovery());
    }
  }
}
