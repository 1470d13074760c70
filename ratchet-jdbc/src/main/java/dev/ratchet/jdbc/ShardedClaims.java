package dev.ratchet.jdbc;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One claim across the clusters of a {@link ShardedStore}: which clusters to try, oldest claimable
 * row first, and whether any cluster answered at all. A cluster that fails is skipped (it rests in
 * its {@link ClusterMember}); only when none answers is the claim itself unavailable.
 */
final class ShardedClaims {
  private final List<ClusterMember> candidates;
  private RatchetException failure;
  private boolean answered;

  /** {@code inTurn}: the clusters to ask, in this call's turn (the order of ties). */
  ShardedClaims(List<ClusterMember> inTurn) {
    if (inTurn.size() == 1) {
      this.candidates = inTurn;
      return;
    }
    record Head(ClusterMember member, Instant oldest) {}
    List<Head> heads = new ArrayList<>();
    for (ClusterMember m : inTurn) {
      Optional<Optional<Instant>> head = attempt(m, s -> Optional.of(s.oldestClaimable()));
      head.flatMap(h -> h).ifPresent(h -> heads.add(new Head(m, h)));
    }
    heads.sort(Comparator.comparing(Head::oldest)); // stable: ties keep the turn's order
    this.candidates = heads.stream().map(Head::member).toList();
  }

  List<ClusterMember> candidates() {
    return candidates;
  }

  /** {@code work} on {@code m}; empty (and noted) when the cluster is unavailable. */
  <T> Optional<T> attempt(ClusterMember m, Function<JdbcStore, Optional<T>> work) {
    try {
      Optional<T> r = m.call(work);
      answered = true;
      return r;
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.STORE_UNAVAILABLE) {
        throw e;
      }
      failure = failure == null ? e : failure;
      return Optional.empty();
    }
  }

  /** Throws the first failure when no cluster answered. */
  void requireAnAnswer() {
    if (!answered && failure != null) {
      throw failure;
    }
  }
}
