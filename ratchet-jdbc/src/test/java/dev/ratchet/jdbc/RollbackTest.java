package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.RuntimeFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollback attacks on the files (SPEC §4, D7, D17): older content put back, the mark re-pointed or
 * rolled back, an old copy of a database restored. Each is made with plain SQL or file copies, then
 * a fresh runtime recovers from the store alone and must refuse ({@code CHECKPOINT}).
 */
class RollbackTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private JdbcStore store;
  private Path marks;
  private Path content;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private void openSingle() {
    marks = dir.resolve("store.db");
    content = marks;
    store = JdbcStore.open(Database.sqlite(marks), TestStores.options(clock));
    fixture();
  }

  private void openSplit() {
    marks = dir.resolve("marks.db");
    content = dir.resolve("content.db");
    reopenSplit();
    fixture();
  }

  private void reopenSplit() {
    store =
        JdbcStore.split(
            Database.sqlite(marks), Database.sqlite(content), TestStores.options(clock));
  }

  private void fixture() {
    f = new RuntimeFixture(7, clock, store, store);
    task = f.task();
    ws = f.workspace();
  }

  /** A run with a few committed steps; returns its generation. The lease is released. */
  private long runSteps(int reads) {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("w", "write_file", args("app.py", RuntimeFixture.FIXED)));
      moreReads(run, reads);
      return run.generation();
    }
  }

  private long resumeAndRead(int reads) {
    try (Run run = f.ratchet("w1").resume(task, "run-1", ws)) {
      moreReads(run, reads);
      return run.generation();
    }
  }

  private static void moreReads(Run run, int n) {
    for (int i = 0; i < n; i++) {
      String id = "r" + run.state().usage().proposals();
      run.apply(run.action(id, "read_file", JsonObject.builder().put("path", "app.py").build()));
    }
  }

  private static JsonObject args(String path, String text) {
    return JsonObject.builder().put("path", path).put("content", text).build();
  }

  private String digestOf(long generation) {
    return Sql.one(
        marks,
        "SELECT content_digest FROM ratchet_generations WHERE run_id = 'run-1' AND generation = "
            + generation);
  }

  private void assertRecoveryRefused(String messagePart) {
    ThrowingCallable resume = () -> f.ratchet("w2").resume(task, "run-1", ws);
    Throwable t = catchThrowable(resume);
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(t.getMessage()).contains(messagePart);
  }

  private void copy(Path from, Path to) throws IOException {
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  @Rules("R3.2-stale")
  void anOlderCheckpointPutBackIntoTheCurrentRowIsRefused() {
    openSingle();
    long g = runSteps(3);
    Sql.exec(
        content,
        "UPDATE ratchet_checkpoints SET body = (SELECT body FROM ratchet_checkpoints"
            + " WHERE content_digest = '"
            + digestOf(g - 1)
            + "') WHERE content_digest = '"
            + digestOf(g)
            + "'");
    assertRecoveryRefused("does not match the mark's digest");
  }

  @Test
  @Rules("R3.2-stale")
  void aMarkPointedAtOlderContentIsRefused() {
    openSingle();
    long g = runSteps(3);
    Sql.exec(marks, "UPDATE ratchet_marks SET content_digest = '" + digestOf(g - 1) + "'");
    assertRecoveryRefused("not committed as generation " + g);
    // Editing the generation log as well gets past the store; the signed generation does not.
    Sql.exec(
        marks,
        "UPDATE ratchet_generations SET content_digest = '"
            + digestOf(g - 1)
            + "' WHERE generation = "
            + g);
    assertRecoveryRefused("stale checkpoint");
  }

  @Test
  @Rules("R3.2-stale")
  void aWholeMarkRolledBackIsRefusedByTheSignedSetHeads() {
    openSingle();
    long g = runSteps(3);
    Sql.exec(
        marks,
        "UPDATE ratchet_marks SET generation = "
            + (g - 1)
            + ", content_digest = '"
            + digestOf(g - 1)
            + "'");
    assertRecoveryRefused("do not match the signed count");
  }

  @Test
  @Rules("R3.2-stale")
  void restoringAnOldCopyOfTheContentDatabaseIsRefused() throws IOException {
    openSplit();
    runSteps(1);
    Path backup = dir.resolve("content-backup.db");
    Sql.exec(content, "VACUUM INTO '" + backup + "'");
    long g = resumeAndRead(2);
    store.close();
    copy(backup, content);
    Files.deleteIfExists(Path.of(content + "-wal"));
    Files.deleteIfExists(Path.of(content + "-shm"));
    reopenSplit();
    fixture();
    Throwable t = catchThrowable(() -> store.load(task.taskId(), "run-1"));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(t.getMessage()).contains("generation " + g).contains("older copy");
    assertRecoveryRefused("restored from an older copy");
  }

  /**
   * D17, stated as a test so the threat model stays honest: with mark and content in one SQLite
   * file, restoring an older copy of the whole file restores a consistent older history, and
   * nothing local can tell. The defence is an independent mark store (split mode).
   */
  @Test
  void restoringTheWholeSingleFileIsNotDetectableLocally() throws IOException {
    openSingle();
    long before = runSteps(1);
    Path backup = dir.resolve("store-backup.db");
    Sql.exec(marks, "VACUUM INTO '" + backup + "'");
    long after = resumeAndRead(2);
    assertThat(after).isGreaterThan(before);
    store.close();
    copy(backup, marks);
    Files.deleteIfExists(Path.of(marks + "-wal"));
    Files.deleteIfExists(Path.of(marks + "-shm"));
    store = JdbcStore.open(Database.sqlite(marks), TestStores.options(clock));
    fixture();
    assertThat(store.load(task.taskId(), "run-1").orElseThrow().generation()).isEqualTo(before);
    clock.advance(Duration.ofMinutes(5));
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.generation()).isLessThan(after); // the older history was accepted
    }
  }
}
