package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.store.Lease;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * ADR 0062 with 1–2 s leases on core's in-memory store (the worker sees it only through the
 * scheduling SPI): the worker renews a claimed lease in the background, so a step 2.5 times longer
 * than the TTL keeps its run (another worker cannot claim it meanwhile, and the step's commit goes
 * through); a lease taken away mid-step stops the driving and nothing more is done under it; a
 * store outage makes the loop back off exponentially, with jitter and a cap, and it claims as soon
 * as the store is back.
 */
class WorkerLeaseTest {
  private static final Duration TTL = Duration.ofSeconds(1);

  @Test
  void aStepLongerThanTheTtlKeepsItsLease() throws Exception {
    Duration ttl = Duration.ofSeconds(2);
    try (WorkerFixture fx = new WorkerFixture(ttl)) {
      fx.store.schedule(fx.task.taskId(), "r1", "slow", "ref");
      AtomicReference<String> phaseAfterStep = new AtomicReference<>();
      CompletableFuture<Void> inStep = new CompletableFuture<>();
      Driver slow =
          new Driver() {
            @Override
            public String name() {
              return "slow";
            }

            @Override
            public DriveResult drive(DriveContext ctx) {
              inStep.complete(null);
              sleep(5_000); // a long adapter call: two and a half TTLs
              ctx.run()
                  .apply(
                      ctx.run()
                          .action(
                              "read-1",
                              "read_file",
                              JsonObject.builder().put("path", "app.py").build()));
              phaseAfterStep.set(ctx.run().state().phase().wireName());
              return DriveResult.yielded("one slow step");
            }
          };
      Worker w = fx.worker(slow, new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      CompletableFuture<Boolean> stepped = CompletableFuture.supplyAsync(w::step);
      inStep.get(30, TimeUnit.SECONDS);
      for (int i = 0; i < 5; i++) {
        Thread.sleep(500);
        assertThat(fx.store.claim("w2", TTL))
            .as("claim by another worker at %d ms", 500 * (i + 1))
            .isEmpty();
      }
      assertThat(stepped.get(30, TimeUnit.SECONDS)).isTrue();
      assertThat(phaseAfterStep.get()).isEqualTo(Phase.RUNNING.wireName());
      assertThat(fx.store.load(fx.task.taskId(), "r1").orElseThrow().generation())
          .as("the read after the long step committed under the kept lease")
          .isGreaterThanOrEqualTo(3);
      assertThat(fx.lines()).noneMatch(l -> l.contains("lease lost"));
      assertThat(fx.lines())
          .anyMatch(l -> l.contains("worker w1 claimed run r1"))
          .anyMatch(l -> l.contains("worker w1 run r1: yielded (one slow step)"))
          .anyMatch(l -> l.contains("worker w1 released run r1"));
    }
  }

  @Test
  void aLostLeaseStopsTheDrivingAfterTheStepInFlightAndTouchesNothingMore() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "loop", "ref");
      CompletableFuture<Long> inStep = new CompletableFuture<>();
      AtomicReference<Boolean> sawStop = new AtomicReference<>(false);
      Driver loop =
          new Driver() {
            @Override
            public String name() {
              return "loop";
            }

            @Override
            public DriveResult drive(DriveContext ctx) {
              inStep.complete(ctx.run().generation());
              sleep(2_500); // the step in flight while the lease is taken away
              sawStop.set(ctx.draining());
              return ctx.draining()
                  ? DriveResult.yielded("told to stop")
                  : DriveResult.ended("went on");
            }
          };
      Worker w = fx.worker(loop, new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      CompletableFuture<Boolean> stepped = CompletableFuture.supplyAsync(w::step);
      long generation = inStep.get(30, TimeUnit.SECONDS);
      // Someone else's grant: the lease now has another token and version.
      Lease other = fx.store.grantElsewhere("r1", "w2", Duration.ofMinutes(1));
      assertThat(stepped.get(30, TimeUnit.SECONDS)).isTrue();
      assertThat(sawStop.get()).as("the driver was told to stop").isTrue();
      assertThat(fx.lines())
          .anyMatch(l -> l.contains("worker w1 run r1: lease lost: renewal refused"))
          .anyMatch(l -> l.contains("worker w1 run r1: stopped: the lease was lost"));
      // Nothing was done under the lost lease: no commit, the row neither parked nor ended.
      assertThat(fx.store.load(fx.task.taskId(), "r1").orElseThrow().generation())
          .isEqualTo(generation);
      // Still runnable (not ended, not parked): claimable as soon as the other holder lets go.
      fx.store.release(other);
      assertThat(fx.store.claim("w3", TTL)).isPresent();
    }
  }

  @Test
  void aStoreOutageBacksOffExponentiallyAndTheWorkerRecovers() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "quick", "ref");
      Driver quick =
          new Driver() {
            @Override
            public String name() {
              return "quick";
            }

            @Override
            public DriveResult drive(DriveContext ctx) {
              return DriveResult.ended("done");
            }
          };
      Worker w =
          fx.worker(
              quick,
              new WorkerOptions(
                  "w1", 1, Duration.ofMillis(50), TTL, false, Duration.ofMillis(400)));
      Thread loop;
      // The outage: every store call fails STORE_UNAVAILABLE, as an unreachable database's do.
      fx.store.setAvailable(false);
      loop = new Thread(() -> run(w));
      loop.start();
      Thread.sleep(2_000);
      assertThat(fx.lines()).noneMatch(l -> l.contains("claimed"));
      fx.store.setAvailable(true);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (fx.lines().stream().noneMatch(l -> l.contains("released run r1"))
          && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      w.stop();
      loop.join(10_000);
      assertThat(fx.lines()).anyMatch(l -> l.contains("worker w1 claimed run r1"));
      java.util.List<Long> waits =
          fx.lines().stream()
              .filter(l -> l.contains("store error"))
              .map(l -> Long.parseLong(l.replaceAll(".*backing off (\\d+) ms.*", "$1")))
              .toList();
      assertThat(waits).hasSizeGreaterThanOrEqualTo(3);
      assertThat(waits.get(0)).as("first wait: the base, with jitter").isBetween(50L, 100L);
      assertThat(waits).allMatch(ms -> ms <= 400, "capped at 400 ms");
      assertThat(waits.subList(2, waits.size())).allMatch(ms -> ms >= 200, "grown to the cap");
      assertThat(fx.store.load(fx.task.taskId(), "r1")).isPresent();
    }
  }

  private static void run(Worker w) {
    try {
      w.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
