package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@link dev.ratchet.schedule.SchedulingStore} contract (SPEC D24, D33; ADR 0060, 0061, 0064),
 * the one class every implementation subclasses: the rows' behaviour ({@link
 * SchedulingRowsContract}); claims raced from several threads — and, for a store other processes
 * can open, from child JVMs too — each of which wins every row exactly once; and submissions: the
 * store hands back exactly the signed task it was given, with the claim, and one whose signature
 * does not verify is refused by the worker, its row ended under the claim's lease, and never
 * started.
 */
public abstract class SchedulingStoreContract extends SchedulingRowsContract {
  private static final int ROWS = 60;

  private final SigningKey operator =
      SigningKey.of("olga", Ed25519.generate(new SeededEntropy(37)));
  private final SigningKey stranger =
      SigningKey.of("mallory", Ed25519.generate(new SeededEntropy(73)));
  private final TrustRoot operators = TrustRoot.operators(List.of(operator.trusted()));

  /**
   * Starts a claimer for this store in a child JVM, or returns empty when the store lives in this
   * process only. The child prints {@code OPEN} once its store is open, reads {@code GO}, then
   * claims as {@code owner} until nothing is claimable, finishing and releasing each claim, prints
   * {@code CLAIMED <run id>} for each, and exits 0. It judges time as {@link #clock} does.
   */
  protected Optional<Process> startClaimerProcess(String owner) throws IOException {
    return Optional.empty();
  }

  private List<String> claimAll(String owner) {
    List<String> won = new ArrayList<>();
    for (Optional<Claim> c = store.claim(owner, TTL); c.isPresent(); c = store.claim(owner, TTL)) {
      won.add(c.get().runId());
      store.finish(c.get(), c.get().lease());
      store.release(c.get().lease());
    }
    return won;
  }

  private void scheduleRows() {
    for (int i = 0; i < ROWS; i++) {
      store.schedule(TASK, String.format("run-%03d", i), DRIVER, "ref");
    }
  }

  private static void assertEachRowWonOnce(List<String> claimed) {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      expected.add(String.format("run-%03d", i));
    }
    assertThat(claimed)
        .as("every row claimed, none twice")
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void claimsRacedFromSeveralThreadsWinEachRowExactlyOnce() throws Exception {
    scheduleRows();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<List<String>>> claimers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String owner = "thread-" + t;
        claimers.add(() -> claimAll(owner));
      }
      List<String> claimed = Collections.synchronizedList(new ArrayList<>());
      for (Future<List<String>> f : pool.invokeAll(claimers, 60, TimeUnit.SECONDS)) {
        claimed.addAll(f.get());
      }
      assertEachRowWonOnce(claimed);
    } finally {
      pool.shutdownNow();
    }
    assertThat(store.claim("late", TTL)).isEmpty();
  }

  @Test
  void claimsRacedFromThreadsAndChildProcessesWinEachRowExactlyOnce() throws Exception {
    List<Process> children = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    try {
      for (String owner : List.of("process-1", "process-2")) {
        Optional<Process> p = startClaimerProcess(owner);
        Assumptions.assumeTrue(p.isPresent(), "this store lives in one process only");
        children.add(p.get());
        outputs.add(
            new BufferedReader(
                new InputStreamReader(p.get().getInputStream(), StandardCharsets.UTF_8)));
      }
      for (BufferedReader out : outputs) {
        assertThat(out.readLine()).as("the child opened the store").isEqualTo("OPEN");
      }
      scheduleRows();
      ExecutorService pool = Executors.newFixedThreadPool(2 + children.size());
      try {
        List<Future<List<String>>> results = new ArrayList<>();
        for (int i = 0; i < children.size(); i++) {
          Process child = children.get(i);
          BufferedReader out = outputs.get(i);
          child.getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
          child.getOutputStream().flush();
          results.add(pool.submit(() -> claimedBy(out)));
        }
        results.add(pool.submit(() -> claimAll("thread-1")));
        results.add(pool.submit(() -> claimAll("thread-2")));
        List<String> claimed = new ArrayList<>();
        for (Future<List<String>> f : results) {
          claimed.addAll(f.get(120, TimeUnit.SECONDS));
        }
        assertEachRowWonOnce(claimed);
      } finally {
        pool.shutdownNow();
      }
      for (Process child : children) {
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("claimer process exit").isZero();
      }
    } finally {
      children.forEach(Process::destroyForcibly);
    }
  }

  private static List<String> claimedBy(BufferedReader out) throws IOException {
    List<String> won = new ArrayList<>();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("CLAIMED ")) {
        won.add(line.substring("CLAIMED ".length()));
      }
    }
    return won;
  }

  private JsonObject taskFile(String marker) {
    return JsonObject.builder()
        .put("task", JsonObject.builder().put("task_id", TASK).put("marker", marker).build())
        .build();
  }

  @Test
  void aSubmissionComesBackWithTheClaimExactlyAsSubmittedAndVerifies() {
    SignedSubmission s =
        SignedSubmission.sign(TASK, "run-s", DRIVER, taskFile("a"), "n-1", operator);
    store.submit(TASK, "run-s", DRIVER, s);
    assertThat(store.submission(TASK, "run-s")).contains(s);
    assertThat(store.scheduled())
        .as("a submitted run is listed before any worker starts it")
        .singleElement()
        .satisfies(r -> assertThat(r.submitted()).isTrue())
        .satisfies(r -> assertThat(r.state()).isEqualTo("runnable"));
    Claim c = claim("w1");
    assertThat(c.runId()).isEqualTo("run-s");
    assertThat(c.submitted()).isTrue();
    assertThat(c.taskRef()).isEqualTo(Claim.SUBMITTED);
    assertThat(c.submission()).as("what the first step needs").contains(s);
    assertThat(c.submission().orElseThrow().verify(operators, TASK, "run-s", DRIVER))
        .isEqualTo(taskFile("a"));
    // Bound to its run: the same envelope read as another run's is refused.
    DecisionRefused rebound =
        catchThrowableOfType(
            DecisionRefused.class, () -> s.verify(operators, TASK, "run-other", DRIVER));
    assertThat(rebound.reason()).isEqualTo(DecisionRefused.Reason.WRONG_BINDING);
  }

  @Test
  void aSubmissionWhoseSignatureDoesNotVerifyIsRefusedItsRowEndedAndTheRunNeverStarted() {
    SignedEnvelope signed =
        SignedEnvelope.fromJson(
            dev.ratchet.json.Json.parse(
                SignedSubmission.sign(TASK, "run-bad", DRIVER, taskFile("a"), "n-1", operator)
                    .text()),
            "submission");
    // The payload edited after signing (the task file swapped): the signature no longer holds.
    JsonObject edited = signed.payload().with("task_file", taskFile("edited"));
    SignedSubmission forged =
        SignedSubmission.of(new SignedEnvelope(edited, signed.keyId(), signed.signatureEd25519()));
    store.submit(TASK, "run-bad", DRIVER, forged);
    store.submit(
        TASK,
        "run-stranger",
        DRIVER,
        SignedSubmission.sign(TASK, "run-stranger", DRIVER, taskFile("b"), "n-2", stranger));

    List<DecisionRefused.Reason> reasons = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Claim c = claim("w1");
      assertThat(c.submission()).as("handed back as stored, damage included").isPresent();
      DecisionRefused refused =
          catchThrowableOfType(
              DecisionRefused.class,
              () -> c.submission().orElseThrow().verify(operators, TASK, c.runId(), DRIVER));
      assertThat(refused.code()).isEqualTo(ErrorCode.APPROVAL);
      reasons.add(refused.reason());
      // The worker's answer to a refused claim: end the row under the claim's lease, release.
      store.finish(c, c.lease());
      store.release(c.lease());
      assertThat(checkpoints().load(TASK, c.runId())).as("never started").isEmpty();
    }
    assertThat(reasons)
        .containsExactlyInAnyOrder(
            DecisionRefused.Reason.BAD_SIGNATURE, DecisionRefused.Reason.UNTRUSTED_SIGNER);
    assertThat(store.claim("w2", TTL)).as("refused rows are never claimed again").isEmpty();
  }

  @Test
  void aRunIdIsSubmittedOnceAndNotOverAStartedRun() {
    store.schedule(TASK, "run-x", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-x", c.lease());
    SignedSubmission s =
        SignedSubmission.sign(TASK, "run-s", DRIVER, taskFile("a"), "n-1", operator);
    store.submit(TASK, "run-s", DRIVER, s);
    RatchetException again =
        catchThrowableOfType(RatchetException.class, () -> store.submit(TASK, "run-s", DRIVER, s));
    assertThat(again.code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(again).hasMessageContaining("run_id");
    RatchetException taken =
        catchThrowableOfType(
            RatchetException.class, () -> store.submit("task-2", "run-x", DRIVER, s));
    assertThat(taken.code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(store.submission("task-2", "run-x")).isEmpty();
    assertThat(store.submission(TASK, "run-s")).contains(s);
  }

  @Test
  void wakeWaitingMakesEveryWaitingRunClaimableAndLeavesEndedRowsEnded() {
    // Named in claim order (least recently touched, then by id): the last one is never claimed.
    for (String run : List.of("run-a-inbox", "run-b-timer", "run-c-ended", "run-d-fresh")) {
      store.schedule(TASK, run, DRIVER, "ref");
    }
    for (int i = 0; i < 3; i++) {
      Claim c = claim("w1");
      switch (c.runId()) {
        case "run-a-inbox" -> assertThat(store.park(c, c.lease(), null)).isTrue();
        case "run-b-timer" ->
            assertThat(store.park(c, c.lease(), START.plus(java.time.Duration.ofDays(7)))).isTrue();
        default -> store.finish(c, c.lease());
      }
      store.release(c.lease());
    }
    assertThat(store.scheduled())
        .extracting(
            dev.ratchet.schedule.ScheduledRun::runId, dev.ratchet.schedule.ScheduledRun::state)
        .contains(
            org.assertj.core.groups.Tuple.tuple("run-a-inbox", "waiting"),
            org.assertj.core.groups.Tuple.tuple("run-b-timer", "waiting"),
            org.assertj.core.groups.Tuple.tuple("run-c-ended", "ended"));
    Claim fresh = claim("w1");
    assertThat(fresh.runId()).isEqualTo("run-d-fresh");
    store.finish(fresh, fresh.lease());
    store.release(fresh.lease());
    assertThat(store.claim("w1", TTL)).as("the rest wait or ended").isEmpty();

    assertThat(store.wakeWaiting()).as("the two waiting rows").isEqualTo(2);

    List<String> woken = new ArrayList<>();
    for (Optional<Claim> c = store.claim("w2", TTL); c.isPresent(); c = store.claim("w2", TTL)) {
      woken.add(c.get().runId());
    }
    assertThat(woken)
        .as("every waiting run, with no delivery and no time passing; never an ended one")
        .containsExactlyInAnyOrder("run-a-inbox", "run-b-timer");
    assertThat(store.wakeWaiting()).as("nothing waits any more").isZero();
  }

  @Test
  void aWakeWhileAWorkerDecidesToWaitKeepsTheRunRunnable() {
    store.schedule(TASK, "run-a", DRIVER, "ref");
    Claim c = claim("w1");
    start("run-a", c.lease());
    assertThat(store.wakeWaiting()).as("the row is runnable, not waiting").isZero();
    assertThat(store.park(c, c.lease(), null))
        .as("judged before the wake (under the old trust root): it loses to the wake")
        .isFalse();
    store.release(c.lease());
    Claim again = claim("w2");
    assertThat(again.runId()).isEqualTo("run-a");
    assertThat(again.nudges()).isEqualTo(c.nudges() + 1);
  }
}
