package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static dev.ratchet.adapters.Workspaces.none;
import static dev.ratchet.adapters.Workspaces.sha;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.internal.IntentRecord;
import dev.ratchet.adapters.internal.ReceiptJournal;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash between the rename and the receipt append (the adapter's own crash window) is found and
 * settled from the file's content digest: done, not done, or someone else's — never run twice.
 */
class WorkspaceCrashReconciliationTest {
  @TempDir Path root;
  final ManualClock clock = Workspaces.clock();
  WorkspaceAdapter ws;
  final WriteIntent appendA = Workspaces.append("log.txt", "A\n", "");

  @BeforeEach
  void open() {
    Workspaces.put(root, "log.txt", "");
    ws = Workspaces.builder(root, clock).open();
  }

  @AfterEach
  void close() {
    ws.close();
  }

  /** Executes with a seam that dies right after the rename, then reopens as a new process would. */
  private Observation crashAfterRename(String key) {
    Observation before = ws.observe();
    ws.crashSeam(
        p -> {
          throw new SimulatedCrash(p);
        });
    assertThatThrownBy(() -> ws.execute(appendA, key, fence(1), none()))
        .isInstanceOfSatisfying(
            SimulatedCrash.class,
            c -> assertThat(c.point()).isEqualTo(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT));
    ws.close();
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
    return before;
  }

  @Test
  void aRenameWithoutItsReceiptIsCompletedOnLookup() {
    Observation before = crashAfterRename("k1");
    clock.advance(Duration.ofSeconds(5));
    ws = Workspaces.builder(root, clock).open();
    Receipt r = ws.lookup("k1").orElseThrow();
    assertThat(r.intentDigest()).isEqualTo(appendA.digest());
    assertThat(r.revisionBefore()).isEqualTo(before.revision());
    assertThat(r.fingerprintBefore()).isEqualTo(before.stateFingerprint());
    Observation live = ws.observe();
    assertThat(r.revisionAfter()).isEqualTo(live.revision()).isEqualTo(1);
    assertThat(r.fingerprintAfter()).isEqualTo(live.stateFingerprint());
    // The commit time is the instant the approval was last checked, journaled before the rename.
    assertThat(r.committedAtMs()).isEqualTo(clock.millis() - 5000);
    AdapterOutcome retry = ws.execute(appendA, "k1", fence(1), none());
    assertThat(retry.kind()).isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
  }

  @Test
  void twoRecoverersReconcilingTheSameWriteProduceOneReceipt() throws Exception {
    crashAfterRename("k1");
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.List<java.util.concurrent.Future<Receipt>> found = new java.util.ArrayList<>();
      for (int i = 0; i < 2; i++) {
        found.add(
            pool.submit(
                () -> {
                  try (WorkspaceAdapter other = Workspaces.builder(root, clock).open()) {
                    return other.lookup("k1").orElseThrow();
                  }
                }));
      }
      assertThat(found.get(0).get()).isEqualTo(found.get(1).get());
    } finally {
      pool.shutdownNow();
    }
    ws = Workspaces.builder(root, clock).open();
    assertThat(ws.observe().revision()).isEqualTo(1);
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
  }

  @Test
  void aRetryAfterTheCrashReplaysInsteadOfAppendingAgain() {
    crashAfterRename("k1");
    ws = Workspaces.builder(root, clock).open();
    assertThat(ws.execute(appendA, "k1", fence(1), none()).kind())
        .isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
  }

  @Test
  void aForeignChangeAfterTheCrashMakesTheReceiptUnableToExplainTheLiveState() {
    crashAfterRename("k1");
    Workspaces.put(root, "other.txt", "someone else");
    ws = Workspaces.builder(root, clock).open();
    Receipt r = ws.lookup("k1").orElseThrow();
    assertThat(r.fingerprintAfter()).isNotEqualTo(ws.observe().stateFingerprint());
  }

  @Test
  void anIntentWhoseRenameNeverHappenedIsDroppedAndExecutesOnce() {
    Observation before = ws.observe();
    journalIntent(
        new IntentRecord(
            "k1",
            appendA.digest(),
            "append_file",
            "log.txt",
            ".ratchet-adapter/tmp/x",
            sha(""),
            sha("A\n"),
            0,
            before.stateFingerprint(),
            "0".repeat(64),
            null,
            "run-1",
            1,
            null,
            0,
            false));
    Workspaces.put(root, ".ratchet-adapter/tmp/x", "half-written");
    assertThat(ws.lookup("k1")).isEmpty();
    assertThat(root.resolve(".ratchet-adapter/tmp/x")).doesNotExist();
    assertThat(ws.observe()).isEqualTo(before);
    assertThat(ws.execute(appendA, "k1", fence(1), none()).kind())
        .isEqualTo(AdapterOutcome.Kind.EXECUTED);
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
  }

  @Test
  void anIntentWhoseFileMatchesNeitherDigestIsNeverExecutedAgain() {
    Observation before = ws.observe();
    journalIntent(
        new IntentRecord(
            "k1",
            appendA.digest(),
            "append_file",
            "log.txt",
            ".ratchet-adapter/tmp/x",
            sha(""),
            sha("A\n"),
            0,
            before.stateFingerprint(),
            "0".repeat(64),
            null,
            "run-1",
            1,
            null,
            0,
            false));
    Workspaces.put(root, "log.txt", "A\nB\n");
    assertThat(ws.lookup("k1")).isEmpty();
    assertThatThrownBy(() -> ws.execute(appendA, "k1", fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STALE_OBSERVATION));
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\nB\n");
    // Other keys are unaffected.
    assertThat(ws.execute(Workspaces.write("x.txt", "x", null), "k2", fence(1), none()).kind())
        .isEqualTo(AdapterOutcome.Kind.EXECUTED);
  }

  private void journalIntent(IntentRecord rec) {
    try (ReceiptJournal j = ReceiptJournal.open(root.resolve(".ratchet-adapter/receipts.db"))) {
      j.putIntent(rec);
    }
  }
}
