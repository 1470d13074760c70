package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.CommitStats;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.Canonical;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The atomic commit protocol (SPEC §4, D7, D8), for one request or a batch of them.
 *
 * <p>One transaction on the mark side carries the whole batch; each request runs inside its own
 * savepoint (in (task, run) order, so concurrent batches lock mark rows in one order), so a request
 * that loses its race, is fenced or is refused rolls back alone and the others still commit. Per
 * request: the compare-and-set ({@link Writes#advance}: a statement on SQLite, a {@code SECURITY
 * DEFINER} function on PostgreSQL) checks generation, instance and live lease at once and its row
 * count decides (1 won, 0 refused, anything else is a bug); a refusal is then explained in the
 * fixed order generation ({@code LostRace}), fence, instance ({@code Fenced}). A winner appends its
 * records (each must continue its set's chain), logs its generation and prunes what retention no
 * longer keeps.
 *
 * <p>Single database: the content row is written in the same transaction. Split store: content is
 * first written, addressed by digest, in its own durable transaction on the content side; only then
 * is the mark compared and set. A crash in between leaves unreferenced content and the previous
 * generation intact.
 */
public final class Committer {
  private static final String SAVEPOINT = "ratchet_commit";

  private final Side marks;
  private final Side content;
  private final StoreOptions options;
  private final AtomicLong transactions = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicInteger largest = new AtomicInteger();
  private final AtomicLong prunesDeferred = new AtomicLong();

  /** {@code content == marks} for a single database. */
  public Committer(Side marks, Side content, StoreOptions options) {
    this.marks = marks;
    this.content = content;
    this.options = options;
  }

  /** One request's verdict: a result, or the failure that refused it. */
  public record Outcome(CommitResult result, Throwable failure) {
    static Outcome of(CommitResult r) {
      return new Outcome(r, null);
    }

    static Outcome failed(Throwable t) {
      return new Outcome(null, t);
    }

    /** The result, or the failure re-raised in the caller's thread. */
    public CommitResult resultOrThrow(boolean fromAnotherThread) {
      if (failure == null) {
        return result;
      }
      if (failure instanceof RatchetException e) {
        throw fromAnotherThread ? new RatchetException(e.code(), e.getMessage(), e) : e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      throw Failures.unavailable("commit failed", failure);
    }
  }

  /** One request inside the mark transaction: a result (with what retention kept) or a refusal. */
  private record Applied(CommitResult result, RatchetException refusal, List<String> retained) {}

  private boolean split() {
    return content != marks;
  }

  /** Commits {@code batch} in one mark transaction; outcomes in request order. */
  public List<Outcome> commit(List<CommitRequest> batch) {
    List<String> digests = batch.stream().map(r -> Canonical.sha256Hex(r.checkpoint())).toList();
    if (split()) {
      content.write(
          "writing checkpoint content",
          c -> {
            for (int i = 0; i < batch.size(); i++) {
              content.dialect().writes().putContent(c, batch.get(i), digests.get(i));
            }
            return null;
          });
      options.crashSeam().reached(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    }
    List<Applied> applied =
        batch.size() == 1
            ? List.of(alone(batch.get(0), digests.get(0)))
            : manyInOneCall()
                ? inOneCall(batch, digests)
                : marks.write("committing", c -> applyAll(c, batch, digests));
    transactions.incrementAndGet();
    requests.addAndGet(batch.size());
    largest.accumulateAndGet(batch.size(), Math::max);
    if (split()) {
      pruneContent(batch, applied);
    }
    List<Outcome> out = new ArrayList<>(batch.size());
    for (Applied a : applied) {
      out.add(a.refusal() == null ? Outcome.of(a.result()) : Outcome.failed(a.refusal()));
    }
    return out;
  }

  /**
   * Applies the batch in (task, run) order, so that two batches on a database with row locks
   * (PostgreSQL) take their runs' mark rows in the same order and cannot deadlock; requests of one
   * run keep their queue order. Outcomes are returned in request order.
   */
  private List<Applied> applyAll(Connection c, List<CommitRequest> batch, List<String> digests)
      throws SQLException {
    Integer[] order = lockOrder(batch);
    Applied[] out = new Applied[batch.size()];
    for (int i : order) {
      execute(c, "SAVEPOINT " + SAVEPOINT);
      try {
        Applied a = apply(c, batch.get(i), digests.get(i));
        if (a.result().kind() != CommitResult.Kind.COMMITTED) {
          execute(c, "ROLLBACK TO SAVEPOINT " + SAVEPOINT);
        }
        out[i] = a;
      } catch (RatchetException e) {
        execute(c, "ROLLBACK TO SAVEPOINT " + SAVEPOINT);
        out[i] = new Applied(null, e, List.of());
      }
      execute(c, "RELEASE SAVEPOINT " + SAVEPOINT);
    }
    return List.of(out);
  }

  /** Request indexes in (task, run) order; a run's requests keep their queue order (stable). */
  private static Integer[] lockOrder(List<CommitRequest> batch) {
    Integer[] order = new Integer[batch.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        Comparator.comparing((Integer i) -> batch.get(i).scope().taskId())
            .thenComparing(i -> batch.get(i).scope().runId()));
    return order;
  }

  /** One call commits several runs' requests (PostgreSQL, schema 17, single database: ADR 0141). */
  private boolean manyInOneCall() {
    return !split() && marks.dialect().writes().commitsManyInOneCall(marks.schemaVersion());
  }

  /**
   * The batch as one statement with auto-commit on, so it is one transaction and one round trip;
   * each request runs in its own subtransaction on the server, in (task, run) order. A refused
   * request is explained by reads after the call, as a lone one is. The crash windows: before the
   * call is sent (no run committed) and after it returned (each winner durable, none told); a crash
   * while it is in flight commits every winner or none, since the server commits the statement
   * whole or not at all.
   */
  private List<Applied> inOneCall(List<CommitRequest> batch, List<String> digests) {
    Integer[] order = lockOrder(batch);
    List<CommitRequest> sorted = new ArrayList<>(batch.size());
    List<String> sortedDigests = new ArrayList<>(batch.size());
    for (int i : order) {
      sorted.add(batch.get(i));
      sortedDigests.add(digests.get(i));
    }
    options.crashSeam().reached(CrashPoint.STORE_BEFORE_BATCHED_COMMIT);
    Applied[] out = new Applied[batch.size()];
    marks.statement(
        "committing a batch",
        c -> {
          List<Writes.BatchVerdict> verdicts =
              marks
                  .dialect()
                  .writes()
                  .commitManyInOneCall(c, sorted, sortedDigests, options.retainOlder());
          for (int k = 0; k < order.length; k++) {
            out[order[k]] = judge(c, sorted.get(k), verdicts.get(k));
          }
          return null;
        });
    options.crashSeam().reached(CrashPoint.STORE_AFTER_BATCHED_COMMIT);
    return List.of(out);
  }

  /** One request's answer from a batched call: committed, refused (explained) or its refusal. */
  private static Applied judge(Connection c, CommitRequest r, Writes.BatchVerdict v)
      throws SQLException {
    if (v.refusal() != null) {
      return new Applied(null, v.refusal(), List.of());
    }
    if (v.advance().rows() == 0) {
      return new Applied(explainRefusal(c, r, v.advance().judgedAtMs()), null, List.of());
    }
    Leases.requireOne(v.advance().rows(), "batched commit");
    return new Applied(new CommitResult.Committed(r.nextGeneration()), null, List.of());
  }

  /** One call commits a request (PostgreSQL, schema 5, single database: ADR 0043). */
  private boolean oneCall() {
    return !split() && marks.dialect().writes().commitsInOneCall(marks.schemaVersion());
  }

  /**
   * A lone request needs no savepoint: a refusal before any write commits nothing, and a failure
   * after one rolls the whole transaction back. On the one-call path its statement is its own
   * transaction (no separate COMMIT), so the commit costs one round trip; a refusal is explained by
   * reads after it (docs/store.md "Statements per commit").
   */
  private Applied alone(CommitRequest r, String digest) {
    try {
      return oneCall()
          ? marks.statement("committing", c -> apply(c, r, digest))
          : marks.write("committing", c -> apply(c, r, digest));
    } catch (RatchetException e) {
      return new Applied(null, e, List.of());
    }
  }

  private Applied apply(Connection c, CommitRequest r, String digest) throws SQLException {
    if (oneCall()) {
      Writes.Advance verdict =
          marks.dialect().writes().commitInOneCall(c, r, digest, options.retainOlder());
      if (verdict.rows() == 0) {
        return new Applied(explainRefusal(c, r, verdict.judgedAtMs()), null, List.of());
      }
      Leases.requireOne(verdict.rows(), "one-call commit");
      return new Applied(new CommitResult.Committed(r.nextGeneration()), null, List.of());
    }
    Writes.Advance verdict =
        marks.dialect().writes().advance(c, marks, r, digest, options.retainOlder());
    if (verdict.rows() == 0) {
      return new Applied(explainRefusal(c, r, verdict.judgedAtMs()), null, List.of());
    }
    Leases.requireOne(verdict.rows(), "mark compare-and-set");
    String taskId = r.scope().taskId();
    String runId = r.scope().runId();
    marks.dialect().writes().append(c, marks.dialect(), r);
    long generation = r.nextGeneration();
    if (!split()) {
      marks.dialect().writes().putContent(c, r, digest);
      marks.dialect().writes().pruneUnlogged(c, r);
      return new Applied(new CommitResult.Committed(generation), null, List.of());
    }
    // The log now holds exactly the generations from this floor up (advance pruned below it).
    long floor = generation - options.retainOlder();
    List<String> retained =
        Marks.retained(c, taskId, runId, floor).stream().map(Marks.Retained::digest).toList();
    return new Applied(new CommitResult.Committed(generation), null, retained);
  }

  /**
   * Why the compare-and-set matched no row, in the fixed order: generation, fence, instance. The
   * lease is judged at the time the compare-and-set judged it; marks and lease versions only move
   * forward, so what refused it then still refuses it when read again.
   */
  private static CommitResult explainRefusal(Connection c, CommitRequest r, long now)
      throws SQLException {
    Optional<Marks.Row> mark = Marks.get(c, r.scope().taskId(), r.scope().runId());
    long current = mark.map(Marks.Row::generation).orElse(0L);
    if (current != r.expectedGeneration()) {
      return new CommitResult.LostRace(current);
    }
    Optional<String> fence = Leases.problem(c, r.fence(), r.token(), now);
    if (fence.isPresent()) {
      return new CommitResult.Fenced(fence.get());
    }
    String instance = r.scope().environmentInstanceId();
    if (mark.isPresent() && !mark.get().instanceId().equals(instance)) {
      return new CommitResult.Fenced(
          "environment instance '"
              + instance
              + "' is not the run's instance '"
              + mark.get().instanceId()
              + "'");
    }
    throw Failures.internal("the mark compare-and-set matched no row, yet every check holds");
  }

  /**
   * Split store: drops content that retention no longer keeps, after the mark committed. A failure
   * here loses nothing (the run's next commit prunes the same rows), so it is counted, not raised.
   */
  private void pruneContent(List<CommitRequest> batch, List<Applied> applied) {
    try {
      content.write(
          "pruning checkpoint content",
          c -> {
            for (int i = 0; i < batch.size(); i++) {
              Applied a = applied.get(i);
              if (a.refusal() == null && a.result().kind() == CommitResult.Kind.COMMITTED) {
                content.dialect().writes().pruneContent(c, batch.get(i), a.retained());
              }
            }
            return null;
          });
    } catch (RatchetException e) {
      prunesDeferred.incrementAndGet();
    }
  }

  public CommitStats stats() {
    return new CommitStats(transactions.get(), requests.get(), largest.get(), prunesDeferred.get());
  }

  /** Prepared, so a SQLite writer's {@link StatementCache} compiles each savepoint verb once. */
  private static void execute(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.execute();
    }
  }
}
