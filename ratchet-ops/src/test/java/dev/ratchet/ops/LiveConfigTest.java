package dev.ratchet.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: {@code ratchet.properties} is re-read by a running process. A live key takes its new
 * value and is logged with it; an unchanged file changes and logs nothing; a malformed file is
 * refused with the key and the rule and the configuration in force stays; a key that picks the
 * store keeps the value the process started with, logged by name only as needing a restart.
 */
class LiveConfigTest {
  @TempDir Path dir;
  private final List<String> log = new ArrayList<>();

  private Path file() {
    return dir.resolve(Configuration.FILE);
  }

  private LiveConfig started(String content) throws IOException {
    Files.writeString(file(), content);
    Configuration c = Configuration.read(new Home(dir));
    return new LiveConfig(c, Set.of(Configuration.WORKER_POLL), log::add, InstantSource.system());
  }

  @Test
  void aChangedLiveKeyIsAppliedAndLoggedWithItsValue() throws IOException {
    LiveConfig live = started("worker.poll=1s\n");
    Files.writeString(file(), "worker.poll=250ms\n");

    Configuration now = live.check();

    assertThat(now.workerPoll()).contains(Duration.ofMillis(250));
    assertThat(live.inForce()).isEqualTo(now);
    assertThat(log).containsExactly("ratchet.properties changed: applied worker.poll = 250ms");

    Files.delete(file());
    assertThat(live.check().workerPoll()).as("unset: back to the default").isEmpty();
    assertThat(log.get(1)).contains("applied worker.poll = (unset: the default)");
  }

  @Test
  void anUnchangedOrMerelyTouchedFileChangesAndLogsNothing() throws IOException {
    LiveConfig live = started("# a comment\nworker.poll=2s\n");
    Configuration before = live.inForce();
    assertThat(live.check()).isEqualTo(before);
    Files.writeString(file(), "# a comment\nworker.poll=2s\n"); // rewritten, same content
    Files.setLastModifiedTime(file(), FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    assertThat(live.check()).isEqualTo(before);
    Files.writeString(file(), "worker.poll = 2s\n"); // another text, the same values
    assertThat(live.check()).isEqualTo(before);
    assertThat(log).isEmpty();
  }

  @Test
  void aMalformedFileIsRefusedNamingTheKeyAndTheRuleAndTheOldOneStays() throws IOException {
    LiveConfig live = started("worker.poll=1s\n");

    Files.writeString(file(), "worker.poll=soon\n");
    assertThat(live.check().workerPoll()).contains(Duration.ofSeconds(1));
    assertThat(log).hasSize(1);
    assertThat(log.get(0))
        .contains("ratchet.properties changed but is refused")
        .contains("worker.poll")
        .contains("'soon' is not a duration like 250ms, 2s or 1m")
        .contains("the configuration in force stays");

    Files.writeString(file(), "worker.pol=2s\n");
    assertThat(live.check().workerPoll()).contains(Duration.ofSeconds(1));
    assertThat(log.get(1)).contains("unknown key(s) [worker.pol]");

    Files.writeString(file(), "worker.poll=0ms\n");
    assertThat(live.check().workerPoll()).contains(Duration.ofSeconds(1));
    assertThat(log.get(2)).contains("worker.poll: must be from 1ms to 10m");

    Files.writeString(file(), "store=postgres://nowhere/db\n");
    live.check();
    assertThat(log.get(3)).contains("refused").contains("store");
    assertThat(live.inForce().get(Configuration.STORE)).isEmpty();

    Files.writeString(file(), "worker.poll=3s\n");
    assertThat(live.check().workerPoll())
        .as("a good file again applies")
        .contains(Duration.ofSeconds(3));
  }

  @Test
  void aKeyThatPicksTheStoreNeedsARestartAndKeepsItsValueUnlogged() throws IOException {
    Path a = dir.resolve("a-secret-path.db");
    Path b = dir.resolve("b-secret-path.db");
    LiveConfig live = started("store=sqlite:" + a + "\nworker.poll=1s\n");

    Files.writeString(file(), "store=sqlite:" + b + "\nworker.poll=5s\npg.worker-user=w2\n");
    Configuration now = live.check();

    assertThat(now.get(Configuration.STORE)).contains("sqlite:" + a);
    assertThat(now.get("pg.worker-user")).as("a role user picks the login: kept unset").isEmpty();
    assertThat(now.workerPoll())
        .as("the live key in the same file applies")
        .contains(Duration.ofSeconds(5));
    assertThat(log).hasSize(1);
    assertThat(log.get(0))
        .contains("applied worker.poll = 5s")
        .contains("pg.worker-user, store changed: takes effect only after a restart")
        .doesNotContain("secret-path")
        .doesNotContain("w2");
  }

  @Test
  void aKeyLiveElsewhereIsNotUsedByAProcessWithoutIt() throws IOException {
    Files.writeString(file(), "worker.poll=1s\n");
    LiveConfig console =
        new LiveConfig(
            Configuration.read(new Home(dir)), Set.of(), log::add, InstantSource.system());
    Files.writeString(file(), "worker.poll=4s\n");
    console.check();
    assertThat(log)
        .containsExactly(
            "ratchet.properties changed: worker.poll changed: not used by this process");
  }

  @Test
  void aRecentRewriteOfTheSameSizeAndTimeIsStillNoticed() throws IOException {
    LiveConfig live = started("worker.poll=1s\n");
    live.check();
    FileTime t = Files.getLastModifiedTime(file());
    Files.writeString(file(), "worker.poll=2s\n"); // same size
    Files.setLastModifiedTime(file(), t); // and the same time, as a coarse clock would leave it
    assertThat(live.check().workerPoll())
        .as("modified less than 2 s ago: its stamp is not trusted, its content is compared")
        .contains(Duration.ofSeconds(2));
  }
}
