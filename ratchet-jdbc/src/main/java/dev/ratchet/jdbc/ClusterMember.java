package dev.ratchet.jdbc;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.MonotonicClock;
import java.time.Duration;
import java.util.function.Function;

/**
 * One cluster of a {@link ShardedStore}: its store, opened on first use so that a cluster that is
 * down when the process starts only makes its own runs wait, and a short rest after a failure, so
 * that claims go to the other clusters instead of waiting out a connect timeout each time.
 */
final class ClusterMember {
  private static final long FIRST_REST = Duration.ofMillis(250).toNanos();
  private static final long LONGEST_REST = Duration.ofSeconds(5).toNanos();

  private final Cluster cluster;
  private final StoreOptions options;
  private final MonotonicClock clock;
  private JdbcStore store; // guarded by this
  private long restUntil; // guarded by this
  private long rest; // guarded by this; 0 while healthy
  private boolean closed; // guarded by this

  ClusterMember(Cluster cluster, StoreOptions options, MonotonicClock clock) {
    this.cluster = cluster;
    this.options = options;
    this.clock = clock;
  }

  String name() {
    return cluster.name();
  }

  boolean listens() {
    return cluster.database().kind() == Database.Kind.POSTGRES;
  }

  /** True for a short while after this cluster failed: claims skip it meanwhile. */
  synchronized boolean resting() {
    return rest > 0 && clock.nanos() - restUntil < 0;
  }

  /**
   * Runs {@code work} on this cluster's store, opening it first if need be. {@code
   * STORE_UNAVAILABLE} comes back naming the cluster (never its URL) and starts a rest.
   */
  <T> T call(Function<JdbcStore, T> work) {
    try {
      T result = work.apply(open());
      healthy();
      return result;
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.STORE_UNAVAILABLE) {
        throw e;
      }
      failed();
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "cluster " + name() + ": " + e.getMessage(), e);
    }
  }

  private synchronized JdbcStore open() {
    if (closed) {
      throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, "the store is closed");
    }
    if (store == null) {
      store = JdbcStore.open(cluster.database(), options);
    }
    return store;
  }

  private synchronized void healthy() {
    rest = 0;
  }

  private synchronized void failed() {
    rest = rest == 0 ? FIRST_REST : Math.min(LONGEST_REST, rest * 2);
    restUntil = clock.nanos() + rest;
  }

  synchronized void close() {
    closed = true;
    if (store != null) {
      store.close();
      store = null;
    }
  }
}
