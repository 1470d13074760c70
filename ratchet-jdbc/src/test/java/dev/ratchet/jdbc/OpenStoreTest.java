package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RunScope;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.Rules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a store: what is created, what is refused, and that refusing changes nothing. */
class OpenStoreTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final StoreOptions mustExist = StoreOptions.defaults(clock);
  private final StoreOptions create = mustExist.withOpenMode(OpenMode.CREATE);

  private static RatchetException refusal(ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    return (RatchetException) t;
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }

  @Test
  void mustExistIsTheDefault() {
    assertThat(mustExist.openMode()).isEqualTo(OpenMode.MUST_EXIST);
    assertThat(mustExist.synchronous()).isEqualTo(StoreOptions.Synchronous.FULL);
    assertThat(mustExist.retainOlder()).isEqualTo(3);
  }

  @Test
  @Rules("R3.2-store-absent")
  void aMissingStoreIsUnavailableAndNothingIsCreated() throws IOException {
    Path file = dir.resolve("absent.db");
    RatchetException e = refusal(() -> JdbcStore.open(Database.sqlite(file), mustExist));
    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(e.getMessage()).contains("no Ratchet store").contains("nothing was created");
    assertThat(files()).isEmpty();
    Path marks = dir.resolve("marks.db");
    Path content = dir.resolve("content.db");
    JdbcStore.open(Database.sqlite(marks), create).close();
    assertThat(
            refusal(
                    () ->
                        JdbcStore.split(
                            Database.sqlite(marks), Database.sqlite(content), mustExist))
                .code())
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(Files.exists(content)).isFalse();
  }

  @Test
  void createMakesAStoreThatReopensWithMustExist() {
    Path file = dir.resolve("new.db");
    Lease fence;
    try (JdbcStore s = JdbcStore.open(Database.sqlite(file), create)) {
      assertThat(s.schemaVersion()).isEqualTo(15);
      fence = s.acquire("run-1", "w1", Duration.ofMinutes(5)).orElseThrow();
      CommitResult r =
          s.commit(new CommitRequest(new RunScope("t", "run-1", "env"), 0, fence, "{}", List.of()));
      assertThat(r).isEqualTo(new CommitResult.Committed(1));
    }
    try (JdbcStore s = JdbcStore.open(Database.sqlite(file), mustExist)) {
      assertThat(s.load("t", "run-1").orElseThrow().generation()).isEqualTo(1);
      s.check(fence.fence());
    }
    assertThat(Sql.one(file, "PRAGMA journal_mode")).isEqualTo("wal");
    assertThat(Sql.column(file, "SELECT version FROM ratchet_schema"))
        .containsExactly(
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15");
  }

  @Test
  void openingTwiceAppliesNoMigrationTwice() {
    Path file = dir.resolve("twice.db");
    JdbcStore.open(Database.sqlite(file), create).close();
    JdbcStore.open(Database.sqlite(file), create).close();
    assertThat(Sql.column(file, "SELECT version FROM ratchet_schema"))
        .containsExactly(
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15");
  }

  @Test
  void aNewerSchemaIsRefusedAndLeftUntouched() {
    Path file = dir.resolve("newer.db");
    JdbcStore.open(Database.sqlite(file), create).close();
    Sql.exec(file, "INSERT INTO ratchet_schema (version, description) VALUES (16, 'future')");
    for (StoreOptions o : List.of(mustExist, create)) {
      RatchetException e = refusal(() -> JdbcStore.open(Database.sqlite(file), o));
      assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(e.getMessage()).contains("schema version 16").contains("upgrade Ratchet");
    }
    assertThat(Sql.column(file, "SELECT version FROM ratchet_schema"))
        .containsExactly(
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16");
  }

  @Test
  void aForeignDatabaseIsRefusedWithoutBeingChanged() {
    Path file = dir.resolve("foreign.db");
    Sql.exec(file, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
    String before = Sql.one(file, "PRAGMA journal_mode");
    RatchetException e = refusal(() -> JdbcStore.open(Database.sqlite(file), mustExist));
    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(e.getMessage()).contains("not an initialised Ratchet store");
    assertThat(Sql.one(file, "PRAGMA journal_mode")).isEqualTo(before).isEqualTo("delete");
    assertThat(Sql.column(file, "SELECT name FROM sqlite_master WHERE type = 'table'"))
        .containsExactly("notes");
  }

  @Test
  void aFileThatIsNotADatabaseIsUnavailable() throws IOException {
    Path file = dir.resolve("garbage.db");
    Files.writeString(file, "this is not an SQLite database, just some text ".repeat(100));
    assertThat(refusal(() -> JdbcStore.open(Database.sqlite(file), mustExist)).code())
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(refusal(() -> JdbcStore.open(Database.sqlite(file), create)).code())
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
  }

  @Test
  void aStoreInADirectoryThatDoesNotExistIsUnavailable() {
    Path file = dir.resolve("no/such/dir/store.db");
    assertThat(refusal(() -> JdbcStore.open(Database.sqlite(file), create)).code())
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
  }

  @Test
  void aClosedStoreIsUnavailableForLeasesToo() {
    JdbcStore s = JdbcStore.open(Database.sqlite(dir.resolve("closed.db")), create);
    s.close();
    assertThat(refusal(() -> s.acquire("run-1", "w1", Duration.ofSeconds(1))).code())
        .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(refusal(() -> s.current("run-1")).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
  }

  @Test
  void aLockedDatabaseIsUnavailableAfterTheBusyTimeout() throws Exception {
    Path file = dir.resolve("locked.db");
    try (JdbcStore s =
            JdbcStore.open(Database.sqlite(file), create.withBusyTimeout(Duration.ofMillis(50)));
        var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
        var st = c.createStatement()) {
      st.execute("BEGIN IMMEDIATE");
      assertThat(refusal(() -> s.acquire("run-1", "w1", Duration.ofSeconds(1))).code())
          .isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      st.execute("ROLLBACK");
      assertThat(s.acquire("run-1", "w1", Duration.ofSeconds(1))).isPresent();
    }
  }
}
