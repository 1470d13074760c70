package dev.ratchet.harness.demo;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.model.RunState;
import dev.ratchet.seam.CrashSeam;
import java.time.Duration;

/**
 * One look at the demo's run from outside its workers, through the library's front door: the store
 * opened (never created), the task file read, its adapter opened without preparing anything, and
 * the run's state verified from the signed checkpoint ({@code Ratchet.verify}: no lease, no write).
 */
final class DemoRun implements AutoCloseable {
  final JdbcStore store;
  final Ratchet ratchet;
  final DemoTask task;
  final EnvironmentAdapter adapter;
  final RunState state;

  DemoRun(Demo demo) {
    DemoHome home = demo.home();
    this.task = DemoTask.read(demo.taskFile());
    this.store = home.store(demo.clock(), false, CrashSeam.NONE);
    try {
      this.ratchet =
          home.ratchet(
              store,
              "demo-operator",
              Duration.ofSeconds(30),
              CrashSeam.NONE,
              demo.clock(),
              demo.entropy());
      this.adapter =
          task.adapter(
              false, new AdapterProvider.Context(demo.clock(), demo.entropy(), CrashSeam.NONE));
      this.state = ratchet.verify(task.task(), DemoScenario.RUN_ID, adapter);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
