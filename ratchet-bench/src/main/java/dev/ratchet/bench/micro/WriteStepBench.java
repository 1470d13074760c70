package dev.ratchet.bench.micro;

import dev.ratchet.bench.InMemorySteps;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JVM work of one agent write step (figure 7's step) on the in-memory store: no database, so
 * every microsecond is the runtime's own (validation, canonical JSON, checkpoint HMAC, record MACs,
 * the adapter). A fresh run per iteration keeps the trace, and so the work per step, bounded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WriteStepBench {
  /** Figure 7 writes 512 characters per step. */
  @Param({"512"})
  public int contentChars;

  private InMemorySteps steps;
  private int iteration;

  @Setup(Level.Iteration)
  public void setUp() {
    steps = InMemorySteps.start("jmh-" + iteration++, contentChars);
    for (int i = 0; i < 50; i++) {
      steps.writeStep();
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    steps.close();
  }

  @Benchmark
  public void writeStep() {
    steps.writeStep();
  }
}
