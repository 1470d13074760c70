package dev.ratchet.bench;

/**
 * Write steps on the testkit's in-memory store, for JMH ({@code micro.WriteStepBench}): what a step
 * costs the JVM alone (runtime, canonical JSON, MACs, the adapter, the store's copying) without any
 * database I/O, the JVM part of figure 7's CPU-per-step row.
 */
public final class InMemorySteps implements AutoCloseable {
  private final BenchStore env;
  private final Driver driver;

  private InMemorySteps(BenchStore env, Driver driver) {
    this.env = env;
    this.driver = driver;
  }

  /** A fresh run on a fresh in-memory store, each step writing {@code contentChars} characters. */
  public static InMemorySteps start(String runId, int contentChars) {
    BenchStore env = BenchStore.inMemory(contentChars);
    return new InMemorySteps(env, env.start(runId));
  }

  /** One agent write step (propose, execute, two commits). */
  public void writeStep() {
    driver.writeStep();
  }

  public long steps() {
    return driver.steps();
  }

  @Override
  public void close() {
    env.close();
  }
}
