package dev.ratchet.testkit;

import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RowCount;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.store.Lease;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The scheduling rows of {@link InMemoryStore} (ADR 0060, 0061): the same columns and the same
 * statements as the JDBC store's {@code ratchet_schedule} and {@code ratchet_submissions}, each
 * change counted in rows and judged by {@link RowCount}. Not thread-safe: the store calls it under
 * its own lock.
 */
final class InMemorySchedule {
  /** One row of {@code ratchet_schedule}. */
  private static final class Row {
    final String taskId;
    final String runId;
    final String driver;
    final String taskRef;
    String state = "runnable";
    Long wakeAtMs;
    long nudges;
    long updatedAtMs;
    String reason;
    Long reasonAtMs;

    Row(String taskId, String runId, String driver, String taskRef, long now) {
      this.taskId = taskId;
      this.runId = runId;
      this.driver = driver;
      this.taskRef = taskRef;
      this.updatedAtMs = now;
    }
  }

  private static final Comparator<Row> LEAST_RECENTLY_TOUCHED =
      Comparator.<Row>comparingLong(r -> r.updatedAtMs)
          .thenComparing(r -> r.taskId)
          .thenComparing(r -> r.runId);

  private final Map<String, Row> rows = new LinkedHashMap<>();
  private final Map<String, SignedSubmission> submissions = new LinkedHashMap<>();

  private static String key(String taskId, String runId) {
    return taskId + "\u0000" + runId;
  }

  /** Whether a scheduling row or a submission uses {@code runId}, under any task. */
  boolean uses(String runId) {
    return rows.values().stream().anyMatch(r -> r.runId.equals(runId))
        || submissions.keySet().stream().anyMatch(k -> k.endsWith("\u0000" + runId));
  }

  void schedule(String taskId, String runId, String driver, String taskRef, long now) {
    if (rows.containsKey(key(taskId, runId))) {
      throw RatchetException.contract("run_id: run '" + runId + "' is already scheduled");
    }
    rows.put(key(taskId, runId), new Row(taskId, runId, driver, taskRef, now));
  }

  void submit(String taskId, String runId, String driver, SignedSubmission s, long now) {
    submissions.put(key(taskId, runId), s);
    schedule(taskId, runId, driver, Claim.SUBMITTED, now);
  }

  List<dev.ratchet.schedule.ScheduledRun> scheduled() {
    return rows.values().stream()
        .sorted(LEAST_RECENTLY_TOUCHED)
        .map(
            r ->
                new dev.ratchet.schedule.ScheduledRun(
                    r.taskId,
                    r.runId,
                    r.driver,
                    r.state,
                    dev.ratchet.schedule.Claim.SUBMITTED.equals(r.taskRef),
                    java.time.Instant.ofEpochMilli(r.updatedAtMs),
                    r.wakeAtMs == null ? null : java.time.Instant.ofEpochMilli(r.wakeAtMs),
                    r.reason,
                    r.reasonAtMs == null ? null : java.time.Instant.ofEpochMilli(r.reasonAtMs)))
        .toList();
  }

  Optional<SignedSubmission> submission(String taskId, String runId) {
    return Optional.ofNullable(submissions.get(key(taskId, runId)));
  }

  /**
   * The claimable row whose held lease lapsed longest ago ({@code lapsedAt}: its expiry, null when
   * not held or not lapsed; ADR 0065), else the least recently touched claimable row whose run is
   * not leased at {@code now}.
   */
  Optional<String[]> claimable(
      long now, Predicate<String> leasedNow, java.util.function.Function<String, Long> lapsedAt) {
    List<Row> due =
        rows.values().stream()
            .filter(
                r ->
                    r.state.equals("runnable")
                        || (r.state.equals("waiting") && r.wakeAtMs != null && r.wakeAtMs <= now))
            .toList();
    Optional<Row> lapsed =
        due.stream()
            .filter(r -> lapsedAt.apply(r.runId) != null)
            .min(
                Comparator.<Row>comparingLong(r -> lapsedAt.apply(r.runId))
                    .thenComparing(r -> r.taskId)
                    .thenComparing(r -> r.runId));
    return lapsed
        .or(() -> due.stream().filter(r -> !leasedNow.test(r.runId)).min(LEAST_RECENTLY_TOUCHED))
        .map(r -> new String[] {r.taskId, r.runId});
  }

  /**
   * The claim of a row whose lease was just granted: runnable again and touched, its reason
   * cleared.
   */
  Claim claimed(String taskId, String runId, Lease lease, long now) {
    Row r = rows.get(key(taskId, runId));
    RowCount.requireOne(r == null ? 0 : 1, "schedule claim");
    r.state = "runnable";
    r.updatedAtMs = now;
    r.reason = null;
    r.reasonAtMs = null;
    return new Claim(
        r.taskId,
        r.runId,
        r.driver,
        r.taskRef,
        r.nudges,
        lease,
        r.taskRef.equals(Claim.SUBMITTED) ? submission(taskId, runId) : Optional.empty());
  }

  /** The claim of a row whose run's lease the caller holds already; empty if none or ended. */
  Optional<Claim> claimHeld(String taskId, String runId, Lease lease, long now) {
    Row r = rows.get(key(taskId, runId));
    if (r == null || r.state.equals("ended")) {
      return Optional.empty();
    }
    return Optional.of(claimed(taskId, runId, lease, now));
  }

  boolean park(Claim claim, Instant wakeAt, String reason, long now) {
    int changed = 0;
    for (Row r : matching(claim)) {
      if (r.state.equals("runnable") && r.nudges == claim.nudges()) {
        r.state = "waiting";
        r.wakeAtMs = wakeAt == null ? null : wakeAt.toEpochMilli();
        r.updatedAtMs = now;
        noteReason(r, reason, now);
        changed++;
      }
    }
    return RowCount.won(changed, "schedule park");
  }

  void finish(Claim claim, String reason, long now) {
    int changed = 0;
    for (Row r : matching(claim)) {
      r.state = "ended";
      r.wakeAtMs = null;
      r.updatedAtMs = now;
      noteReason(r, reason, now);
      changed++;
    }
    RowCount.won(changed, "schedule finish");
  }

  /** A reason given is kept with its time; none given leaves the row's as it is. */
  private static void noteReason(Row r, String reason, long now) {
    if (reason != null) {
      r.reason = reason;
      r.reasonAtMs = now;
    }
  }

  /** The trigger on an inbox insert: the row wakes (an ended row stays ended), a nudge counts. */
  void delivered(String taskId, String runId) {
    for (Row r : matching(taskId, runId)) {
      if (!r.state.equals("ended")) {
        r.state = "runnable";
      }
      r.nudges++;
    }
  }

  /** Every waiting row becomes runnable; every row not ended counts a nudge. */
  int wakeWaiting() {
    int woken = 0;
    for (Row r : rows.values()) {
      if (r.state.equals("ended")) {
        continue;
      }
      if (r.state.equals("waiting")) {
        r.state = "runnable";
        woken++;
      }
      r.nudges++;
    }
    return woken;
  }

  private List<Row> matching(Claim claim) {
    return matching(claim.taskId(), claim.runId());
  }

  private List<Row> matching(String taskId, String runId) {
    Row r = rows.get(key(taskId, runId));
    return r == null ? List.of() : List.of(r);
  }
}
