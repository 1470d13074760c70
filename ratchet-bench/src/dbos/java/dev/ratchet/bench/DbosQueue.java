package dev.ratchet.bench;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Queue;
import dev.dbos.transact.workflow.Workflow;
import dev.dbos.transact.workflow.WorkflowHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DBOS Transact's side of figure 8 (profile {@code dbos} only): workflows of {@link
 * QueueSide#STEPS} steps enqueued on a DBOS queue with a worker concurrency and a polling interval,
 * run by this process. Each drain launches a DBOS instance with that one queue (so no other
 * queue's poller runs meanwhile), enqueues, waits for every result, and closes it; launching is
 * not timed. A workflow is done when its last step's output is recorded (its status update after
 * that is not in the latency).
 */
public final class DbosQueue implements QueueSide {
  private static final String DATABASE = "ratchet_bench_dbos_queue";

  /** The workflow: N steps, each returning its output; the end is recorded by key. */
  public interface Steps {
    int run(int steps, String key);
  }

  /** The registered implementation; DBOS calls it through its proxy. */
  public static final class StepsImpl implements Steps {
    private final DBOS dbos;
    private final Map<String, Long> ended;

    StepsImpl(DBOS dbos, Map<String, Long> ended) {
      this.dbos = dbos;
      this.ended = ended;
    }

    @Override
    @Workflow(name = "ratchetBenchQueued")
    public int run(int steps, String key) {
      int total = 0;
      for (int i = 0; i < steps; i++) {
        int n = i;
        total += dbos.runStep(() -> n + ":x", "step").length();
      }
      ended.put(key, Stopwatch.nanos());
      return total;
    }
  }

  private final String admin;
  private final String dbUrl;
  private final Map<String, Long> ended = new ConcurrentHashMap<>();
  private Duration poll = Queue.DEFAULT_POLLING_INTERVAL;
  private long workflows;

  public DbosQueue(String url, String admin) throws SQLException {
    this.admin = admin;
    try (Connection c = Postgres.connect(admin);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + DATABASE);
    }
    this.dbUrl = url.substring(0, url.lastIndexOf('/') + 1) + DATABASE;
  }

  /** The polling interval of the next drains' queue. */
  public void poll(Duration interval) {
    this.poll = interval;
  }

  @Override
  public String database() {
    return DATABASE;
  }

  @Override
  public double drain(int n, int concurrency, List<Long> latencies) throws Exception {
    DBOSConfig cfg =
        DBOSConfig.defaults("ratchet-bench-queue")
            .withDatabaseUrl(dbUrl)
            .withDbUser(admin)
            .withDbPassword("");
    try (DBOS dbos = new DBOS(cfg)) {
      Queue queue =
          new Queue("bench-c" + concurrency)
              .withWorkerConcurrency(concurrency)
              .withPollingInterval(poll);
      dbos.registerQueue(queue);
      Steps proxy = dbos.registerProxy(Steps.class, new StepsImpl(dbos, ended));
      dbos.launch();
      Map<String, Long> enqueued = new ConcurrentHashMap<>();
      List<WorkflowHandle<Integer, RuntimeException>> handles = new ArrayList<>();
      List<String> keys = new ArrayList<>();
      Stopwatch watch = Stopwatch.start();
      for (int i = 0; i < n; i++) {
        String key = "q-" + (workflows++) + "-" + Long.toString(Stopwatch.nanos(), 36);
        keys.add(key);
        enqueued.put(key, Stopwatch.nanos());
        handles.add(
            dbos.startWorkflow(
                () -> proxy.run(STEPS, key),
                new StartWorkflowOptions(key).withQueue(queue)));
      }
      for (WorkflowHandle<Integer, RuntimeException> h : handles) {
        h.getResult();
      }
      double seconds = watch.elapsedSeconds();
      for (String key : keys) {
        latencies.add(ended.remove(key) - enqueued.get(key));
      }
      return seconds;
    }
  }

  @Override
  public void close() {
    try (Connection c = Postgres.connect(admin);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("could not drop " + DATABASE, e);
    }
  }
}
