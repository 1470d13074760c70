package dev.ratchet.ops.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Settings;
import dev.ratchet.seam.Entropy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39 review: the per-claim, per-tool-call trust check is cheap. While the trust directories'
 * own times stand still their files are not listed, so a key file rewritten in place waits for the
 * periodic re-listing (5 s); a key added to a directory moves its time and is seen at the next
 * check.
 */
class TrustRootsTest {
  @TempDir Path dir;
  private final FileTime aMinuteAgo = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
  private final AtomicLong ahead = new AtomicLong();
  private final InstantSource clock =
      () -> Instant.ofEpochMilli(System.currentTimeMillis() + ahead.get());
  private final Entropy entropy =
      n -> {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
      };

  @Test
  void aStillDirectoryIsNotListedUntilTheBackstopAndANewKeyIsSeenAtOnce() throws Exception {
    Home home = new Home(dir);
    Path approvers = Files.createDirectories(home.approvers());
    Files.createDirectories(home.reviewers());
    Files.createDirectories(home.operators());
    Path made = Files.createDirectories(dir.resolve("made"));
    KeyConfig.createIdentity(made.resolve("alice.key"), "alice", entropy);
    KeyConfig.createIdentity(made.resolve("other.key"), "other", entropy);
    KeyConfig.createIdentity(made.resolve("carol.key"), "carol", entropy);
    Files.copy(made.resolve("alice.pub"), approvers.resolve("alice.pub"));
    stillSinceAMinute(home);

    TrustRoots roots =
        TrustRoots.load(new Settings(home.dir(), null, null, List.of(), null, null, null), clock);
    roots.reload(); // the first check lists
    String before = roots.approvers().toString();

    // Alice's file rewritten in place with another key: the directory's time does not move.
    Files.write(approvers.resolve("alice.pub"), Files.readAllBytes(made.resolve("other.pub")));
    stillSinceAMinute(home);
    assertThat(roots.reload()).as("not listed while the directories stand still").isNull();
    assertThat(roots.approvers().toString()).isEqualTo(before);

    ahead.addAndGet(TrustRoots.RELIST_MS);
    assertThat(roots.reload()).as("listed again after the backstop interval").isNotNull();
    String rewritten = roots.approvers().toString();
    assertThat(rewritten).isNotEqualTo(before);

    // A key added to the directory moves its time: seen at the very next check.
    Files.copy(made.resolve("carol.pub"), approvers.resolve("carol.pub"));
    assertThat(roots.reload()).as("a new file is noticed at once").isNotNull();
    assertThat(roots.approvers().toString()).isNotEqualTo(rewritten);
  }

  /** Sets the trust directories' times to one minute back, so no check finds them too recent. */
  private void stillSinceAMinute(Home home) throws Exception {
    for (Path d : List.of(home.approvers(), home.reviewers(), home.operators())) {
      Files.setLastModifiedTime(d, aMinuteAgo);
    }
  }
}
