package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.outcome.Recovery;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The run {@code ratchet mcp} serves: started when the store does not hold it, else resumed
 * (recovery reconciles what a killed server left in flight before any call is served). A resume
 * waits out the lease of a server that died holding it.
 */
public final class McpRun implements RunAccess, AutoCloseable {
  private static final long POLL_MS = 50;

  private final LiveRatchet live;
  private Ratchet ratchet;
  private long trustGeneration;
  private final TaskFile task;
  private final String runId;
  private final EnvironmentAdapter adapter;
  private final Duration leaseTtl;
  private final Services services;
  private final Consumer<String> log;
  private Run run;

  /**
   * {@code live} is re-checked before each call is served: when the trust roots changed, the run
   * resumes under a runtime built from the new ones (issue 39), so a key trusted after the server
   * started is honoured without a restart.
   */
  public McpRun(
      LiveRatchet live,
      TaskFile task,
      String runId,
      EnvironmentAdapter adapter,
      Duration leaseTtl,
      Services services,
      Consumer<String> log) {
    this.live = live;
    LiveRatchet.Snapshot now = live.check();
    this.ratchet = now.ratchet();
    this.trustGeneration = now.generation();
    this.task = task;
    this.runId = runId;
    this.adapter = adapter;
    this.leaseTtl = leaseTtl;
    this.services = services;
    this.log = log;
  }

  /** Starts the run (a new id) or resumes it, and says what recovery found and did. */
  public Run open(boolean exists) {
    if (!exists) {
      run = ratchet.start(task.task(), runId, adapter);
      log.accept("started run " + runId + " of task " + task.task().taskId());
      return run;
    }
    ratchet.verify(task.task(), runId, adapter);
    run = resumeWhenFree();
    Recovery r = run.recovery();
    log.accept(
        "resumed run "
            + runId
            + " at generation "
            + r.generation()
            + ": found "
            + r.found()
            + ", did "
            + r.did());
    return run;
  }

  @Override
  public Run current() {
    LiveRatchet.Snapshot now = live.check();
    if (now.generation() != trustGeneration && run != null) {
      trustGeneration = now.generation();
      ratchet = now.ratchet();
      close();
      run = resumeWhenFree();
      log.accept(
          "resumed run " + runId + " under the reloaded trust roots: did " + run.recovery().did());
    }
    return run;
  }

  @Override
  public Run reacquire() {
    close();
    run = resumeWhenFree();
    log.accept("lease lapsed; resumed run " + runId + ": did " + run.recovery().did());
    return run;
  }

  private Run resumeWhenFree() {
    long giveUpAt = services.clock().millis() + leaseTtl.toMillis() + 10_000;
    while (true) {
      try {
        return ratchet.resume(task.task(), runId, adapter);
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.FENCED || services.clock().millis() > giveUpAt) {
          throw e;
        }
        // Another server's lease (a killed one) has not expired yet.
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new RatchetException(ErrorCode.INTERNAL, "interrupted while waiting for the lease");
        }
      }
    }
  }

  @Override
  public void close() {
    if (run != null) {
      try {
        run.close();
      } catch (RatchetException e) {
        // A lease already lost needs no release.
      }
    }
  }
}
