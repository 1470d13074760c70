package dev.ratchet.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the failover campaign knows about each promotion, to count the generations it lost (issue 43
 * item 3; the runtime cannot see them, D17): the moment the standby was promoted, what the standby
 * held of every run just before (generation, receipts), and how many orders each run's service had
 * executed by then. A worker prints every commit it made with the monotonic moment the commit
 * returned; a commit that returned before a promotion's moment and after the previous one's was
 * acknowledged by the primary that promotion replaced. A run lost generations in a promotion when
 * that primary acknowledged a higher generation than the standby held; the lost generations covered
 * an effect when the run's service had executed more orders than the standby held receipts for it
 * (an effect whose receipt, or whose intent, went with the lost generations).
 */
final class FailoverBook {
  /** One promotion: when, and what the standby held of each run. */
  record Promotion(
      long atNanos,
      Map<String, Long> generations,
      Map<String, Long> receipts,
      Map<String, Integer> orders) {}

  private final List<Promotion> promotions = new ArrayList<>();
  private final java.util.Set<String> covered = new java.util.HashSet<>();

  int count() {
    return promotions.size();
  }

  /** Whether the run's lost generations covered an effect (after {@link #countLosses}). */
  boolean covered(String runId) {
    return covered.contains(runId);
  }

  /**
   * Which primary acknowledged a commit that returned at {@code nanos}: 0 the first, 1 the next.
   */
  int eraOf(long nanos) {
    int era = 0;
    for (Promotion p : promotions) {
      if (nanos >= p.atNanos()) {
        era++;
      }
    }
    return era;
  }

  /** Reads what the (replayed, not yet promoted) standby holds of {@code schema}'s runs. */
  void readStandby(String standbyUrl, String schema) throws SQLException {
    Map<String, Long> gens = new HashMap<>();
    Map<String, Long> receipts = new HashMap<>();
    try (Connection c = ReplicaPair.admin(standbyUrl);
        Statement s = c.createStatement()) {
      try (ResultSet rs =
          s.executeQuery("SELECT run_id, generation FROM " + schema + ".ratchet_marks")) {
        while (rs.next()) {
          gens.put(rs.getString(1), rs.getLong(2));
        }
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT run_id, count(*) FROM "
                  + schema
                  + ".ratchet_records WHERE set_name = 'receipts' GROUP BY run_id")) {
        while (rs.next()) {
          receipts.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    pending = new Promotion(0, gens, receipts, Map.of());
  }

  private Promotion pending;

  /** The standby read last was promoted at {@code nanos}; {@code orders} per run's service. */
  void promoted(long nanos, Map<String, Integer> orders) {
    promotions.add(new Promotion(nanos, pending.generations(), pending.receipts(), orders));
    pending = null;
  }

  /**
   * Counts, from every worker's {@code STEP run generation worker nanos} lines, the generations
   * each promotion lost: {@code generations_lost}, {@code runs_lost_generations} (a run counted
   * once per promotion) and {@code losses_covering_effects} (such runs whose service had more
   * orders than the standby held receipts); returns the last.
   */
  long countLosses(List<String> lines, Tally t) {
    List<Map<String, Long>> acked = new ArrayList<>();
    for (int i = 0; i < promotions.size(); i++) {
      acked.add(new HashMap<>());
    }
    for (String l : lines) {
      String[] p = l.split(" ");
      if (!p[0].equals("STEP") || p.length < 5) {
        continue;
      }
      int era = eraOf(Long.parseLong(p[4]));
      if (era < promotions.size()) {
        acked.get(era).merge(p[1], Long.parseLong(p[2]), Math::max);
      }
    }
    long covering = 0;
    for (int i = 0; i < promotions.size(); i++) {
      Promotion pr = promotions.get(i);
      for (Map.Entry<String, Long> e : acked.get(i).entrySet()) {
        long lost = e.getValue() - pr.generations().getOrDefault(e.getKey(), 0L);
        if (lost > 0) {
          t.add("generations_lost", lost);
          t.inc("runs_lost_generations");
          if (pr.orders().getOrDefault(e.getKey(), 0)
              > pr.receipts().getOrDefault(e.getKey(), 0L)) {
            covering++;
            covered.add(e.getKey());
          }
        }
      }
    }
    t.add("losses_covering_effects", covering);
    return covering;
  }
}
