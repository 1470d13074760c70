package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.RatchetException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The claim loop on core's in-memory store (SPEC D24, ADR 0060–0062): every runnable run is claimed
 * and driven once; a waiting run is parked and claimed again at its wake-up time; a refused claim
 * ends its row; draining lets the step in flight finish and releases the lease; an idle worker is
 * woken by the store's wake-up long before its poll interval.
 */
class WorkerLoopTest {
  private static final Duration TTL = Duration.ofSeconds(5);

  private static Driver driver(String name, Function<DriveContext, DriveResult> body) {
    return new Driver() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public DriveResult drive(DriveContext ctx) {
        return body.apply(ctx);
      }
    };
  }

  @Test
  void everyRunnableRunIsClaimedAndEndedExactlyOnce() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      for (int i = 1; i <= 6; i++) {
        fx.store.schedule(fx.task.taskId(), "r" + i, "quick", "ref");
      }
      AtomicInteger driven = new AtomicInteger();
      Worker w =
          fx.worker(
              driver(
                  "quick",
                  ctx -> {
                    driven.incrementAndGet();
                    return DriveResult.ended("done");
                  }),
              new WorkerOptions("w1", 3, Duration.ofMillis(50), TTL, true));
      assertThat(w.run()).isEqualTo(6);
      assertThat(driven).hasValue(6);
      assertThat(fx.store.claim("w2", TTL)).as("every row ended").isEmpty();
      for (int i = 1; i <= 6; i++) {
        String run = "r" + i;
        assertThat(fx.lines())
            .filteredOn(l -> l.contains("claimed run " + run + " "))
            .as("claims of %s", run)
            .hasSize(1);
        assertThat(fx.lines()).contains("worker w1 run " + run + ": ended (done)");
      }
    }
  }

  @Test
  void aWaitingRunIsParkedAndClaimedAgainAtItsWakeUpTime() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "later", "ref");
      AtomicInteger calls = new AtomicInteger();
      Instant wakeAt = Instant.ofEpochMilli(System.currentTimeMillis() + 600);
      Worker w =
          fx.worker(
              driver(
                  "later",
                  ctx ->
                      calls.incrementAndGet() == 1
                          ? DriveResult.waiting("a budget window", wakeAt)
                          : DriveResult.ended("woke")),
              new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      assertThat(w.step()).isTrue();
      assertThat(fx.lines()).contains("worker w1 run r1: waiting (a budget window)");
      assertThat(w.step()).as("parked until its wake-up time").isFalse();
      while (System.currentTimeMillis() <= wakeAt.toEpochMilli()) {
        Thread.sleep(20);
      }
      assertThat(w.step()).isTrue();
      assertThat(calls).hasValue(2);
      assertThat(fx.lines()).contains("worker w1 run r1: ended (woke)");
    }
  }

  @Test
  void aRefusedClaimEndsTheRowWithoutStartingTheRun() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "plan", "ref");
      AtomicBoolean drove = new AtomicBoolean();
      Worker w =
          new Worker(
              fx.store,
              dev.ratchet.seam.Seams.systemMonotonic(),
              (claim, draining) -> {
                throw new ClaimRefused(RatchetException.contract("submission: not signed"));
              },
              Map.of(
                  "plan",
                  driver("plan", ctx -> DriveResult.ended(String.valueOf(drove.getAndSet(true))))),
              new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true),
              line -> fx.log.add(line));
      assertThat(w.step()).isTrue();
      assertThat(drove).isFalse();
      assertThat(fx.store.load(fx.task.taskId(), "r1")).as("never started").isEmpty();
      assertThat(fx.store.claim("w2", TTL)).as("the row ended").isEmpty();
      assertThat(fx.lines())
          .anyMatch(l -> l.contains("run r1: refused, not started: CONTRACT: submission"));
    }
  }

  @Test
  void drainingLetsTheStepInFlightFinishAndReleasesTheLease() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "steps", "ref");
      CountDownLatch inStep = new CountDownLatch(1);
      CountDownLatch finishStep = new CountDownLatch(1);
      AtomicBoolean toldToStop = new AtomicBoolean();
      Worker w =
          fx.worker(
              driver(
                  "steps",
                  ctx -> {
                    inStep.countDown();
                    await(finishStep);
                    toldToStop.set(ctx.draining());
                    return ctx.draining()
                        ? DriveResult.yielded("draining")
                        : DriveResult.ended("went on");
                  }),
              new WorkerOptions("w1", 1, Duration.ofSeconds(30), TTL, false));
      Thread loop = new Thread(() -> run(w));
      loop.start();
      assertThat(inStep.await(10, TimeUnit.SECONDS)).isTrue();
      w.stop();
      finishStep.countDown();
      loop.join(10_000);
      assertThat(loop.isAlive()).as("the loop ended").isFalse();
      assertThat(toldToStop).isTrue();
      assertThat(fx.lines())
          .containsSubsequence("worker w1 run r1: yielded (draining)", "worker w1 released run r1");
      assertThat(fx.store.claim("w2", TTL))
          .as("the lease was released and the row left runnable")
          .isPresent();
    }
  }

  @Test
  void anIdleWorkerIsWokenByTheStoreLongBeforeItsPollInterval() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      Worker w =
          fx.worker(
              driver("quick", ctx -> DriveResult.ended("done")),
              new WorkerOptions("w1", 1, Duration.ofSeconds(60), TTL, false));
      Thread loop = new Thread(() -> run(w));
      loop.start();
      waitFor(fx, "listening for runnable runs");
      // The loop has made its first (empty) claim and sleeps up to 60 s unless woken.
      Thread.sleep(200);
      fx.store.schedule(fx.task.taskId(), "r1", "quick", "ref");
      waitFor(fx, "released run r1");
      w.stop();
      loop.join(10_000);
      assertThat(fx.lines()).contains("worker w1 run r1: ended (done)");
    }
  }

  /** Waits up to 10 s (far below the 60 s poll) for a log line containing {@code text}. */
  private static void waitFor(WorkerFixture fx, String text) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (fx.lines().stream().noneMatch(l -> l.contains(text))) {
      assertThat(System.nanoTime() - until)
          .as("waiting for '%s': %s", text, fx.lines())
          .isNegative();
      Thread.sleep(10);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Issue 39, "no loop without an exit": a plain {@code CONTRACT} refusal while opening a claim
   * (not a {@link ClaimRefused}; e.g. the task expects another service revision) used to leave the
   * row runnable, so every worker claimed it again under lease v2, v3... A run never started ends
   * its row; a started one is parked for an operator. Either way nothing claims it again.
   */
  @Test
  void aContractRefusalAtClaimIsNotClaimedAgain() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "plan", "ref");
      fx.store.schedule(fx.task.taskId(), "r2", "plan", "ref");
      RunOpener base = fx.opener();
      AtomicBoolean refuse = new AtomicBoolean();
      AtomicInteger opens = new AtomicInteger();
      RunOpener opener =
          (claim, draining) -> {
            opens.incrementAndGet();
            if (claim.runId().equals("r1") || refuse.get()) {
              throw RatchetException.contract("service.revision: expected 7, the service is at 8");
            }
            return base.open(claim, draining);
          };
      java.util.function.Supplier<Worker> once =
          () ->
              new Worker(
                  fx.store,
                  dev.ratchet.seam.Seams.systemMonotonic(),
                  opener,
                  Map.of("plan", driver("plan", ctx -> DriveResult.yielded("next step"))),
                  new WorkerOptions("w1", 1, Duration.ofMillis(20), TTL, true),
                  fx.log::add);
      // r1 is refused at its first claim; r2 starts and yields (left runnable, as it should be).
      for (int i = 0;
          i < 10
              && (fx.lines().stream().noneMatch(l -> l.contains("run r1:"))
                  || fx.store.load(fx.task.taskId(), "r2").isEmpty());
          i++) {
        assertThat(once.get().step()).isTrue();
      }
      assertThat(fx.store.load(fx.task.taskId(), "r2")).as("r2 started").isPresent();
      // From now on r2's resume is refused too.
      refuse.set(true);
      int before = opens.get();
      Worker w = once.get();
      for (int i = 0; i < 5; i++) {
        w.step();
      }
      assertThat(opens.get() - before).as("r2 refused once, then never claimed again").isEqualTo(1);
      assertThat(fx.store.claim("w2", TTL)).as("no row left runnable").isEmpty();
      assertThat(fx.store.load(fx.task.taskId(), "r1")).as("r1 never started").isEmpty();
      assertThat(fx.lines())
          .anyMatch(l -> l.contains("run r1: refused, not started: CONTRACT: service.revision"))
          .anyMatch(
              l ->
                  l.contains(
                      "run r2: refused at claim, parked for an operator: CONTRACT:"
                          + " service.revision"));
      // Issue 39: the reason is on each row, for status and the console, not only in this log.
      assertThat(reason(fx, "r1"))
          .startsWith("ended at claim, never started: CONTRACT: service.revision: expected 7")
          .endsWith("fix the task and submit it again under a new run id");
      assertThat(reason(fx, "r2"))
          .startsWith("parked at claim: CONTRACT: service.revision: expected 7")
          .contains("'ratchet resume r2'");
      // Fixed and woken (a trust change): the next claim resumes it and the reason is gone.
      refuse.set(false);
      assertThat(fx.store.wakeWaiting()).isEqualTo(1);
      assertThat(once.get().step()).isTrue();
      assertThat(fx.lines()).contains("worker w1 run r2: yielded (next step)");
      assertThat(reason(fx, "r2")).as("cleared by the claim that resumed it").isNull();
    }
  }

  private static String reason(WorkerFixture fx, String runId) {
    return fx.store.scheduled().stream()
        .filter(r -> r.runId().equals(runId))
        .findFirst()
        .orElseThrow()
        .reason();
  }

  /**
   * Issue 39: a driver that waits after refusing an inbox item (e.g. a reviewer decision signed by
   * a key no trust root holds) is logged as a refusal first, never only as an ordinary wait.
   */
  @Test
  void aRefusedInboxItemIsLoggedAsRefusedBeforeTheWait() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "frozen", "ref");
      String refused =
          "no valid reviewer decision for case-1: refused n-1 (key k-7): untrusted_signer: key k-7"
              + " is not in the reviewers' trust root";
      Worker w =
          fx.worker(
              driver(
                  "frozen",
                  ctx -> DriveResult.waiting("needs a reviewer's decision", null, refused)),
              new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      assertThat(w.step()).isTrue();
      java.util.List<String> lines = fx.lines();
      int refusal = lines.indexOf("worker w1 run r1: refused an inbox item: " + refused);
      int wait = lines.indexOf("worker w1 run r1: waiting (needs a reviewer's decision)");
      assertThat(refusal).as(String.join("\n", lines)).isNotNegative();
      assertThat(wait).isGreaterThan(refusal);
    }
  }

  private static void run(Worker w) {
    try {
      w.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * ADR 0053: a run parked with no wake-up time stays parked until the opener reports that what it
   * judges runs by changed (a trust root reloaded); the worker then wakes every waiting run before
   * its next claim and drives the parked run again, with no delivery and no resume.
   */
  @Test
  void aParkedRunIsDrivenAgainWhenTheOpenerReportsAChangeAndNotBefore() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "judge", "ref");
      AtomicBoolean trusted = new AtomicBoolean();
      AtomicBoolean changed = new AtomicBoolean();
      RunOpener base = fx.opener();
      RunOpener opener =
          new RunOpener() {
            @Override
            public DriveContext open(
                dev.ratchet.schedule.Claim claim, java.util.function.BooleanSupplier draining) {
              return base.open(claim, draining);
            }

            @Override
            public boolean judgementChanged() {
              return changed.getAndSet(false);
            }
          };
      // A worker with --once per pass: each stops once nothing is claimable.
      java.util.function.Supplier<Worker> once =
          () ->
              new Worker(
                  fx.store,
                  dev.ratchet.seam.Seams.systemMonotonic(),
                  opener,
                  Map.of(
                      "judge",
                      driver(
                          "judge",
                          ctx ->
                              trusted.get()
                                  ? DriveResult.ended("decision applied")
                                  : DriveResult.waiting("signer not trusted", null))),
                  new WorkerOptions("w1", 1, Duration.ofMillis(20), TTL, true),
                  fx.log::add);
      assertThat(once.get().run()).as("driven once, then parked").isEqualTo(1);
      assertThat(once.get().run()).as("still parked").isZero();

      trusted.set(true);
      changed.set(true);
      assertThat(once.get().run()).as("woken by the change and driven to its end").isEqualTo(1);
      assertThat(fx.lines())
          .contains("worker w1 woke 1 waiting run(s) after a trust change")
          .contains("worker w1 run r1: ended (decision applied)");
    }
  }
}
