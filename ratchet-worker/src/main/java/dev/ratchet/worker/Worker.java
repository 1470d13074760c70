package dev.ratchet.worker;

import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Claim;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.store.Lease;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Claims runnable runs from the store and drives each through its {@link Driver} (SPEC D24, ADR
 * 0060): up to {@code concurrency} runs at once, one claim per thread; a driver that ends the run
 * finishes its scheduling row, one that must wait parks it (an inbox item or the wake-up time makes
 * it runnable again), one that yields leaves it runnable. The lease is released after every claim
 * (closing the run), so waiting holds no lease and no thread. Polls when nothing is claimable.
 */
public final class Worker {
  private final JdbcStore store;
  private final RunOpener opener;
  private final Map<String, Driver> drivers;
  private final WorkerOptions options;
  private final Consumer<String> log;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicLong claims = new AtomicLong();

  public Worker(
      JdbcStore store,
      RunOpener opener,
      Map<String, Driver> drivers,
      WorkerOptions options,
      Consumer<String> log) {
    this.store = Objects.requireNonNull(store, "store");
    this.opener = Objects.requireNonNull(opener, "opener");
    this.drivers = Map.copyOf(drivers);
    this.options = Objects.requireNonNull(options, "options");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The drivers registered with {@link ServiceLoader}, by name. */
  public static Map<String, Driver> discover(ClassLoader loader) {
    Map<String, Driver> out = new HashMap<>();
    for (Driver d : ServiceLoader.load(Driver.class, loader)) {
      out.putIfAbsent(d.name(), d);
    }
    return out;
  }

  /** Asks every loop to stop after the claim in hand. */
  public void stop() {
    stopping.set(true);
  }

  /**
   * Runs the loops until {@link #stop()} (or, with {@code once}, until nothing is claimable);
   * returns the number of claims made.
   */
  public long run() throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < options.concurrency(); i++) {
      Thread t = new Thread(this::loop, "ratchet-worker-" + i);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return claims.get();
  }

  private void loop() {
    while (!stopping.get()) {
      boolean claimed;
      try {
        claimed = step();
      } catch (RatchetException e) {
        // A store error: back off one poll interval and try again.
        log.accept(
            "worker " + options.owner() + ": store error " + e.code() + ": " + e.getMessage());
        claimed = false;
      } catch (RuntimeException e) {
        // A bug in a driver or adapter must not end the loop: log it, back off, go on.
        log.accept("worker " + options.owner() + ": unexpected " + e.getClass().getName());
        claimed = false;
      }
      if (!claimed) {
        if (options.once()) {
          return;
        }
        try {
          Thread.sleep(options.poll().toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Claims and drives one run; false when nothing was claimable. */
  public boolean step() {
    Optional<Claim> got = store.claim(options.owner(), options.leaseTtl());
    if (got.isEmpty()) {
      return false;
    }
    Claim claim = got.get();
    claims.incrementAndGet();
    log.accept(
        "worker "
            + options.owner()
            + " claimed run "
            + claim.runId()
            + " (task "
            + claim.taskId()
            + ", driver "
            + claim.driver()
            + ", lease v"
            + claim.lease().version()
            + ")");
    try {
      drive(claim);
    } catch (RatchetException e) {
      log.accept(
          "worker "
              + options.owner()
              + " run "
              + claim.runId()
              + ": "
              + e.code()
              + ": "
              + e.getMessage());
    } finally {
      store.release(claim.lease()); // a no-op when the run already released it
      log.accept("worker " + options.owner() + " released run " + claim.runId());
    }
    return true;
  }

  private void drive(Claim claim) {
    Driver driver = drivers.get(claim.driver());
    if (driver == null) {
      // No thread here can move it: park it until someone delivers or a worker with it claims.
      store.park(claim, claim.lease(), null);
      log.accept(
          "worker "
              + options.owner()
              + " run "
              + claim.runId()
              + ": no driver named '"
              + claim.driver()
              + "' here; parked");
      return;
    }
    DriveContext ctx = opener.open(claim, stopping::get);
    try (Run run = ctx.run()) {
      DriveResult r = driver.drive(ctx);
      run.flush(); // D22: receipts durable before the run is finished, parked or yielded
      Lease lease = run.lease();
      switch (r.kind()) {
        case ENDED -> store.finish(claim, lease);
        case WAITING -> {
          if (!store.park(claim, lease, r.wakeAt())) {
            log.accept(
                "worker "
                    + options.owner()
                    + " run "
                    + claim.runId()
                    + ": an item arrived;"
                    + " left runnable");
          }
        }
        case YIELDED -> {
          // left runnable: the next claim goes on
        }
      }
      log.accept(
          "worker "
              + options.owner()
              + " run "
              + claim.runId()
              + ": "
              + r.kind().name().toLowerCase(java.util.Locale.ROOT)
              + " ("
              + r.reason()
              + ")");
    }
  }
}
