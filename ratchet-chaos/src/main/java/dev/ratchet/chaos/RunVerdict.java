package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.RecordSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-of-trial verdict on one run, shared by the crash and contention campaigns (D18: counted
 * in the external system's own ledger): the run verifies and is not left running; each intent's
 * effect happened at most once, exactly once when the run completed, and no effect nobody asked
 * for; every receipt the adapter issued is in the run's receipts set or is the evidence of the open
 * review case of its frozen run.
 */
final class RunVerdict {
  private RunVerdict() {}

  /** One run of a trial and where its environment lives. */
  record RunSpec(String id, ChaosTasks.Kind kind, String target, boolean approvals) {
    RunSpec(String id, ChaosTasks.Kind kind, String target) {
      this(id, kind, target, false);
    }

    TaskSpec task() {
      return ChaosTasks.task(kind, approvals);
    }
  }

  /**
   * Whether a worker would still have the run to drive: the store holds no checkpoint of it (a
   * promotion lost even its start) or it verifies as running. A run that does not verify otherwise
   * is left to {@link #judge}.
   */
  static boolean needsDriving(long seed, JdbcStore store, RunSpec r) throws SQLException {
    if (store.load(r.task().taskId(), r.id()).isEmpty()) {
      return true;
    }
    EnvironmentAdapter adapter = adapterOf(r);
    try {
      return auditor(seed, store).verify(r.task(), r.id(), adapter).phase() == Phase.RUNNING;
    } catch (RuntimeException e) {
      return false;
    } finally {
      close(adapter);
    }
  }

  private static Ratchet auditor(long seed, JdbcStore store) {
    return ChaosTasks.ratchet(
        seed, store, store, Clock.systemUTC(), "auditor", Duration.ofMinutes(1), CrashSeam.NONE, 0);
  }

  private static EnvironmentAdapter adapterOf(RunSpec r) {
    return r.kind() == ChaosTasks.Kind.LEDGER
        ? ChaosLedger.adapter(java.net.URI.create(r.target()))
        : WorkspaceAdapter.builder(Path.of(r.target())).open();
  }

  private static void close(EnvironmentAdapter adapter) {
    if (adapter instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception ignored) {
        // closing a journal after the verdict cannot change it
      }
    }
  }

  /** The end-of-trial verdict on one run, from the store and the external system's own ledger. */
  static void judge(long seed, JdbcStore store, RunSpec r, Path ledgerDb, Tally t)
      throws SQLException {
    judge(seed, store, r, ledgerDb, t, false);
  }

  /**
   * As above; with {@code lostIntents} (an asynchronous failover lost generations of this run that
   * covered an effect, ADR 0121) a frozen run may lack a receipt whose intent went with them: it is
   * counted as {@code receipts_lost_with_generations}, not as a failure.
   */
  static void judge(
      long seed, JdbcStore store, RunSpec r, Path ledgerDb, Tally t, boolean lostIntents)
      throws SQLException {
    TaskSpec task = r.task();
    Phase phase;
    String reason;
    String evidenceKey;
    EnvironmentAdapter adapter = adapterOf(r);
    try {
      RunState s = auditor(seed, store).verify(task, r.id(), adapter);
      phase = s.phase();
      evidenceKey =
          s.review() != null && s.review().observedReceipt() != null
              ? s.review().observedReceipt().idempotencyKey()
              : null;
      reason =
          s.stopReason() != null ? s.stopReason() : s.review() != null ? s.review().reason() : null;
    } catch (RuntimeException e) {
      t.inc("lost_runs");
      t.fail(r.id() + ": the run does not verify at the end: " + e);
      return;
    } finally {
      close(adapter);
    }
    t.inc("runs");
    t.inc("phase." + phase.wireName());
    if (phase == Phase.RUNNING) {
      t.inc("lost_runs");
      t.fail(r.id() + ": still running after the drain");
    } else if (phase != Phase.COMPLETED && reason == null) {
      t.fail(r.id() + ": ended " + phase.wireName() + " without a reason");
    }
    Map<String, Integer> effects = new HashMap<>();
    List<String> receipts = new ArrayList<>();
    List<String> indeterminate = new ArrayList<>();
    if (r.kind() == ChaosTasks.Kind.LEDGER) {
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ledgerDb)) {
        query(c, "SELECT sku FROM orders", rs -> effects.merge(rs.getString(1), 1, Integer::sum));
        query(c, "SELECT idem_key FROM idempotency", rs -> receipts.add(rs.getString(1)));
      }
    } else {
      Path file = Path.of(r.target()).resolve(ChaosTasks.LOG);
      try {
        if (Files.exists(file)) {
          for (String l : Files.readAllLines(file)) {
            effects.merge(l, 1, Integer::sum);
          }
        }
      } catch (java.io.IOException e) {
        t.fail(r.id() + ": cannot read the workspace log: " + e);
      }
      Path journal =
          Path.of(r.target()).resolve(WorkspaceAdapter.CONTROL_DIR).resolve("receipts.db");
      if (Files.exists(journal)) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + journal)) {
          query(c, "SELECT idem_key FROM receipts", rs -> receipts.add(rs.getString(1)));
          query(c, "SELECT idem_key FROM intents", rs -> indeterminate.add(rs.getString(1)));
        }
      }
    }
    List<String> expected = ChaosTasks.effects(r.kind());
    for (Map.Entry<String, Integer> e : effects.entrySet()) {
      if (!expected.contains(e.getKey())) {
        t.fail(r.id() + ": an effect no intent asked for: " + e.getKey());
      } else if (e.getValue() > 1) {
        t.add("duplicates", e.getValue() - 1);
        t.fail(r.id() + ": effect " + e.getKey() + " happened " + e.getValue() + " times");
      }
    }
    if (phase == Phase.COMPLETED) {
      t.inc("completed");
      for (String x : expected) {
        if (effects.getOrDefault(x, 0) != 1) {
          t.fail(
              r.id()
                  + ": completed, but effect "
                  + x
                  + " happened "
                  + effects.getOrDefault(x, 0)
                  + " times");
        }
      }
    }
    t.add("effects", effects.values().stream().mapToInt(Integer::intValue).sum());
    t.add("receipts_issued", receipts.size());
    for (String key : receipts) {
      boolean reconciled = store.find(task.taskId(), r.id(), RecordSet.RECEIPTS, key).isPresent();
      if (reconciled) {
        t.inc("receipts_reconciled");
      } else if (phase == Phase.NEEDS_REVIEW && key.equals(evidenceKey)) {
        t.inc("receipts_frozen_with_evidence");
      } else if (phase == Phase.NEEDS_REVIEW && lostIntents) {
        t.inc("receipts_lost_with_generations");
      } else {
        t.inc("lost_receipts");
        t.fail(
            r.id()
                + ": receipt "
                + key
                + " is neither reconciled nor the evidence of its review case");
      }
    }
    if (!indeterminate.isEmpty() && phase != Phase.NEEDS_REVIEW) {
      t.fail(
          r.id()
              + ": the workspace holds indeterminate intents "
              + indeterminate
              + " but the run is "
              + phase.wireName());
    }
  }

  /** Row callback. */
  private interface Rows {
    void row(ResultSet rs) throws SQLException;
  }

  private static void query(Connection c, String sql, Rows rows) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.row(rs);
      }
    }
  }
}
