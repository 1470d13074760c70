package dev.ratchet.worker;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Phase;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.store.Lease;
import dev.ratchet.worker.internal.Backoff;
import dev.ratchet.worker.internal.LeaseKeeper;
import dev.ratchet.worker.internal.Wakeups;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Claims runnable runs from the store and drives each through its {@link Driver} (SPEC D24, ADR
 * 0060, 0062): up to {@code concurrency} runs at once, one claim per thread; a driver that ends the
 * run finishes its scheduling row, one that must wait parks it (an inbox item or the wake-up time
 * makes it runnable again), one that yields leaves it runnable. While a driver works, its lease is
 * renewed in the background; a lost lease stops the driving after the step in flight. The lease is
 * released after every claim (closing the run), so waiting holds no lease and no thread. Idle loops
 * wait for a notification (PostgreSQL) or the poll interval; store errors back off exponentially
 * with jitter, capped. One log line per claim, per result and per release.
 *
 * <p>The worker knows the store only through the scheduling SPI ({@link SchedulingStore}): any
 * implementation works, wake-ups are used when the store offers them ({@link
 * SchedulingStore#listen()}), and lease validity is counted on the injected {@link MonotonicClock}
 * (D22).
 */
public final class Worker {
  private final SchedulingStore store;
  private final MonotonicClock clock;
  private final RunOpener opener;
  private final Map<String, Driver> drivers;
  private final WorkerOptions options;
  private final Consumer<String> log;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicLong claims = new AtomicLong();
  private final ScheduledExecutorService renewals;
  private final Wakeups wakeups;
  private final WorkerEvents events;

  /** The idle poll interval: the options' at start, changed live by {@link #poll(Duration)}. */
  private volatile Duration poll;

  public Worker(
      SchedulingStore store,
      MonotonicClock clock,
      RunOpener opener,
      Map<String, Driver> drivers,
      WorkerOptions options,
      Consumer<String> log) {
    this(store, clock, opener, drivers, options, log, WorkerEvents.NONE);
  }

  /** As above, reporting worker-level metrics to {@code events} (issue 39). */
  public Worker(
      SchedulingStore store,
      MonotonicClock clock,
      RunOpener opener,
      Map<String, Driver> drivers,
      WorkerOptions options,
      Consumer<String> log,
      WorkerEvents events) {
    this.events = Objects.requireNonNull(events, "events");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.opener = Objects.requireNonNull(opener, "opener");
    this.drivers = Map.copyOf(drivers);
    this.options = Objects.requireNonNull(options, "options");
    this.poll = options.poll();
    this.log = Objects.requireNonNull(log, "log");
    this.renewals =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "ratchet-lease-renewal");
              t.setDaemon(true);
              return t;
            });
    this.wakeups = new Wakeups(store, clock, options.owner(), log);
  }

  /** The drivers registered with {@link ServiceLoader}, by name. */
  public static Map<String, Driver> discover(ClassLoader loader) {
    Map<String, Driver> out = new HashMap<>();
    for (Driver d : ServiceLoader.load(Driver.class, loader)) {
      out.putIfAbsent(d.name(), d);
    }
    return out;
  }

  /**
   * Sets the idle poll interval from each loop's next wait on (a live configuration change, issue
   * 39); a wait already begun ends on its old interval or a wake-up.
   */
  public void poll(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw RatchetException.contract("poll: must be positive");
    }
    this.poll = interval;
  }

  /** The idle poll interval now. */
  public Duration poll() {
    return poll;
  }

  /** Asks every loop to stop after the claim in hand. */
  public void stop() {
    events.draining();
    stopping.set(true);
    stopped.countDown();
    wakeups.wake();
  }

  /**
   * Runs the loops until {@link #stop()} (or, with {@code once}, until nothing is claimable);
   * returns the number of claims made.
   */
  public long run() throws InterruptedException {
    if (!options.once() && wakeups.start()) {
      say("listening for runnable runs (polling every " + poll.toMillis() + " ms too)");
    }
    List<Thread> threads = new ArrayList<>();
    try {
      for (int i = 0; i < options.concurrency(); i++) {
        Thread t = new Thread(this::loop, "ratchet-worker-" + i);
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      wakeups.close();
      renewals.shutdownNow();
    }
    return claims.get();
  }

  private void loop() {
    Backoff backoff = new Backoff(Duration.ofMillis(100), options.backoffCap());
    while (!stopping.get()) {
      long seen = wakeups.seen();
      boolean claimed;
      try {
        claimed = step();
        backoff.reset();
      } catch (RatchetException e) {
        Duration d = backoff.next();
        say(
            "store error "
                + e.code()
                + ": "
                + e.getMessage()
                + "; backing off "
                + d.toMillis()
                + " ms (failure "
                + backoff.failures()
                + ")");
        if (options.once() || pause(d)) {
          return;
        }
        continue;
      } catch (RuntimeException e) {
        // A bug in a driver or adapter must not end the loop: log it, back off, go on.
        Duration d = backoff.next();
        say("unexpected " + e.getClass().getName() + "; backing off " + d.toMillis() + " ms");
        if (options.once() || pause(d)) {
          return;
        }
        continue;
      }
      if (!claimed) {
        if (options.once()) {
          return;
        }
        try {
          wakeups.await(seen, poll);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Sleeps {@code d} unless the worker stops first; true when it should stop. */
  private boolean pause(Duration d) {
    try {
      return stopped.await(d.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Claims and drives one run; false when nothing was claimable. */
  public boolean step() {
    if (opener.judgementChanged()) {
      // Runs parked on a decision refused under the old trust root are judged again (ADR 0053).
      int woken = store.wakeWaiting();
      events.trustReloaded(woken);
      say("woke " + woken + " waiting run(s) after a trust change");
    }
    long sent = clock.nanos();
    Optional<Claim> got;
    try {
      got = store.claim(options.owner(), options.leaseTtl());
    } catch (RuntimeException e) {
      events.claimAttempt("error", Duration.ofNanos(clock.nanos() - sent));
      throw e;
    }
    events.claimAttempt(
        got.isEmpty() ? "empty" : "claimed", Duration.ofNanos(clock.nanos() - sent));
    if (got.isEmpty()) {
      return false;
    }
    Claim claim = got.get();
    claims.incrementAndGet();
    events.inFlight(1);
    say(
        "claimed run "
            + claim.runId()
            + " (task "
            + claim.taskId()
            + ", driver "
            + claim.driver()
            + ", lease v"
            + claim.lease().version()
            + ")");
    LeaseKeeper keeper =
        new LeaseKeeper(
            renewals, store, claim.lease(), options.leaseTtl(), clock, sent, this::say, events);
    boolean closed = false;
    try {
      String outcome = drive(claim, keeper);
      // Opened and closed normally: the run's close released the lease, so no second release
      // is sent (issue 38: one round trip less per claim).
      closed = !outcome.equals("no_driver") && !outcome.equals("refused");
      events.driven(outcome);
    } catch (RatchetException e) {
      events.driven("error");
      sayRun(claim, e.code() + ": " + e.getMessage());
    } catch (RuntimeException e) {
      events.driven("error");
      throw e;
    } finally {
      events.inFlight(-1);
      keeper.close();
      if (!closed) {
        store.release(claim.lease()); // a no-op when the run already released it, or lost it
      }
      say("released run " + claim.runId());
    }
    return true;
  }

  /** Drives one claim; how it ended, as {@link WorkerEvents#driven} names it. */
  private String drive(Claim claim, LeaseKeeper keeper) {
    Driver driver = drivers.get(claim.driver());
    if (driver == null) {
      // No thread here can move it: park it until someone delivers or a worker with it claims.
      store.park(claim, claim.lease(), null);
      sayRun(claim, "no driver named '" + claim.driver() + "' here; parked");
      return "no_driver";
    }
    DriveContext ctx;
    // Set by the renewal thread when an operator's pause or cancel waits in the inbox (D37).
    AtomicBoolean stopAsked = new AtomicBoolean();
    try {
      ctx = opener.open(claim, () -> stopping.get() || keeper.lost() || stopAsked.get());
    } catch (ClaimRefused e) {
      // Never started or resumed: end the row so no worker claims it again (ADR 0061).
      store.finish(claim, claim.lease());
      sayRun(claim, "refused, not started: " + e.code() + ": " + e.getMessage());
      return "refused";
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.CONTRACT) {
        throw e; // store, fence, lease: transient, the next claim tries again
      }
      // A contract refusal at start or resume recurs on every claim (issue 39: lease v2, v3...):
      // a run never started ends its row; a started one is parked with no wake-up time, for an
      // operator (or a trust change, ADR 0053) — never left runnable.
      if (claim.firstLease()) {
        store.finish(claim, claim.lease());
        sayRun(claim, "refused, not started: " + e.code() + ": " + e.getMessage());
      } else {
        store.park(claim, claim.lease(), null);
        sayRun(
            claim, "refused at claim, parked for an operator: " + e.code() + ": " + e.getMessage());
      }
      return "refused";
    }
    // Closed in reverse order: renewals stop before the run releases its lease.
    ScheduledFuture<?> asking = askForStops(ctx.run(), stopAsked);
    try (Run run = ctx.run();
        LeaseKeeper renewing = keeper) {
      DriveResult r;
      try {
        r =
            run.state().phase() == Phase.PAUSED
                ? DriveResult.waiting("paused by an operator", null)
                : driver.drive(ctx);
      } finally {
        asking.cancel(false);
      }
      if (renewing.lost()) {
        // Never act after losing the lease: the row is left for whoever holds the run now.
        sayRun(claim, "stopped: the lease was lost (" + r.reason() + ")");
        return "lease_lost";
      }
      run.flush(); // D22: receipts durable before the run is finished, parked or yielded
      Lease lease = run.lease();
      switch (r.kind()) {
        case ENDED -> {
          store.finishAndRelease(claim, lease); // one call; the run's close releases nothing
          opener.released(lease);
        }
        case WAITING -> {
          if (!store.park(claim, lease, r.wakeAt())) {
            sayRun(claim, "an item arrived; left runnable");
          }
        }
        case YIELDED -> {
          // left runnable: the next claim goes on
        }
      }
      String result = r.kind().name().toLowerCase(Locale.ROOT);
      sayRun(claim, result + " (" + r.reason() + ")");
      return result;
    }
  }

  /**
   * Asks the run, at the renewal cadence and never per step (D22), whether an operator's pause or
   * cancel waits; the driver then stops at its next step boundary and the row stays runnable, so
   * the next claim's recovery consumes the item under the lease (D37).
   */
  private ScheduledFuture<?> askForStops(Run run, AtomicBoolean stopAsked) {
    long every = Math.max(50, options.leaseTtl().toMillis() / 3);
    return renewals.scheduleWithFixedDelay(
        () -> {
          try {
            if (!stopAsked.get() && run.stopRequested()) {
              stopAsked.set(true);
            }
          } catch (RuntimeException e) {
            // A store hiccup here only delays the stop until the next look or the next claim.
          }
        },
        every,
        every,
        TimeUnit.MILLISECONDS);
  }

  private void say(String line) {
    log.accept("worker " + options.owner() + " " + line);
  }

  private void sayRun(Claim claim, String line) {
    log.accept("worker " + options.owner() + " run " + claim.runId() + ": " + line);
  }
}
