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

  /**
   * Held while opening, which may wait out a connect timeout: never the lock {@link #resting}
   * takes, so a claim that only asks whether this cluster rests is not held up by it.
   */
  private final Object opening = new Object();

  private JdbcStore store; // guarded by opening
  private boolean closed; // guarded by opening
  private long restUntil; // guarded by this
  private long rest; // guarded by this; 0 while healthy
  private boolean probing; // guarded by this

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
   * Whether a claim may ask this cluster now: always while it is healthy; after a failure, once its
   * rest is over, one claim at a time (the probe), so that a cluster that hangs holds up one
   * claimer for a connect timeout, not all of them.
   */
  synchronized boolean claimable() {
    if (rest == 0) {
      return true;
    }
    if (probing || clock.nanos() - restUntil < 0) {
      return false;
    }
    probing = true;
    return true;
  }

  /**
   * Runs {@code work} on this cluster's store, opening it first if need be. {@code
   * STORE_UNAVAILABLE} comes back naming the cluster (never its URL) and starts a rest.
   */
  <T> T call(Function<JdbcStore, T> work) {
    boolean unavailable = false;
    try {
      return work.apply(open());
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.STORE_UNAVAILABLE) {
        throw e; // the cluster answered: a refusal is the caller's
      }
      unavailable = true;
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "cluster " + name() + ": " + e.getMessage(), e);
    } finally {
      if (unavailable) {
        failed();
      } else {
        healthy();
      }
    }
  }

  private JdbcStore open() {
    synchronized (opening) {
      if (closed) {
        throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, "the store is closed");
      }
      if (store == null) {
        store = JdbcStore.open(cluster.database(), options);
      }
      return store;
    }
  }

  private synchronized void healthy() {
    rest = 0;
    probing = false;
  }

  private synchronized void failed() {
    rest = rest == 0 ? FIRST_REST : Math.min(LONGEST_REST, rest * 2);
    restUntil = clock.nanos() + rest;
    probing = false;
  }

  void close() {
    synchronized (opening) {
      closed = true;
      if (store != null) {
        store.close();
        store = null;
      }
    }
  }
}
