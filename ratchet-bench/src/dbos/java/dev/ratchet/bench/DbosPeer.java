package dev.ratchet.bench;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Workflow;
import dev.dbos.transact.workflow.WorkflowHandle;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * DBOS Transact for Java 1.x as the peer of figure 7 (profile {@code dbos} only): a workflow of N
 * steps, each {@code dbos.runStep} returning a string whose output DBOS records once per step in
 * its system database (its own database on the same server). At-least-once steps: a step that ran
 * and crashed before its output was recorded runs again.
 */
public final class DbosPeer implements Peer {
  private static final String DATABASE = "ratchet_bench_dbos";

  /** The workflow: N steps, each returning its output; the latency of each step is recorded. */
  public interface Steps {
    int run(int steps, String output);
  }

  /** The registered implementation; DBOS calls it through its proxy. */
  public static final class StepsImpl implements Steps {
    private final DBOS dbos;
    final ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();

    StepsImpl(DBOS dbos) {
      this.dbos = dbos;
    }

    @Override
    @Workflow(name = "ratchetBenchSteps")
    public int run(int steps, String output) {
      int total = 0;
      for (int i = 0; i < steps; i++) {
        int n = i;
        long t0 = Stopwatch.nanos();
        String out = dbos.runStep(() -> n + ":" + output, "step");
        latencies.add(Stopwatch.nanos() - t0);
        total += out.length();
      }
      return total;
    }
  }

  private final String adminUrl;
  private final String admin;
  private final DBOS dbos;
  private final StepsImpl impl;
  private final Steps proxy;
  private long workflows;

  public DbosPeer(String url, String admin) throws SQLException {
    this.adminUrl = url;
    this.admin = admin;
    try (Connection c = Postgres.connect(admin);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + DATABASE);
    }
    String dbUrl = url.substring(0, url.lastIndexOf('/') + 1) + DATABASE;
    DBOSConfig cfg =
        DBOSConfig.defaults("ratchet-bench")
            .withDatabaseUrl(dbUrl)
            .withDbUser(admin)
            .withDbPassword("");
    this.dbos = new DBOS(cfg);
    this.impl = new StepsImpl(dbos);
    this.proxy = dbos.registerProxy(Steps.class, impl);
    dbos.launch();
  }

  @Override
  public String database() {
    return DATABASE;
  }

  @Override
  public String guarantee() {
    return "DBOS: each step's output recorded once, at-least-once execution";
  }

  @Override
  public double round(int n, int steps, String output, List<Long> latencies) throws Exception {
    impl.latencies.clear();
    Stopwatch watch = Stopwatch.start();
    List<WorkflowHandle<Integer, RuntimeException>> handles = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "bench-" + (workflows++) + "-" + Long.toString(Stopwatch.nanos(), 36);
      handles.add(
          dbos.startWorkflow(() -> proxy.run(steps, output), new StartWorkflowOptions(id)));
    }
    for (WorkflowHandle<Integer, RuntimeException> h : handles) {
      h.getResult();
    }
    double seconds = watch.elapsedSeconds();
    latencies.addAll(impl.latencies);
    return seconds;
  }

  @Override
  public void close() {
    dbos.close();
    try (Connection c = Postgres.connect(admin);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("could not drop " + DATABASE + " at " + adminUrl, e);
    }
  }
}
