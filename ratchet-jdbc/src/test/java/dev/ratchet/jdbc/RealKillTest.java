package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.StoredRun;
import dev.ratchet.testkit.Rules;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Real kills (SPEC §4, §11): a child JVM commits checkpoints in a loop and prints each generation
 * once its commit returned; the parent SIGKILLs it at a random moment and lets the next child
 * (already booted) recover. After every kill the generation that child loads must be the last
 * acknowledged one or the one after it (durable, not yet acknowledged); its content must verify
 * against the mark and the stored trace must end where the checkpoint says (the child checks and
 * prints {@code BAD} otherwise). Every 20th kill, and after the last, the parent also opens the
 * store itself and walks the whole trace.
 *
 * <p>{@code -Dratchet.kills=N} sets the number of kills (half on one database, half on a split
 * store; 200 by default, 2000 with {@code -Pkills}); {@code -Dratchet.seed=S} replays a campaign.
 * Kills that land between {@code TRY} and {@code ACK} are inside the commit; on the split store,
 * those after {@code MID} are between the content and the mark transaction. Every third kill is
 * aimed at that window, the others land after a random number of commits and a random delay.
 */
@Execution(ExecutionMode.CONCURRENT) // the two campaigns use separate stores; they overlap well
class RealKillTest {
  private static final int KILLS = Integer.getInteger("ratchet.kills", 200);
  private static final long SEED = Long.getLong("ratchet.seed", 20_260_718L);

  @TempDir static Path shared;
  private static ChildJvm jvm;
  @TempDir Path dir;

  @BeforeAll
  static void prepareChildren() throws Exception {
    jvm = new ChildJvm(shared);
  }

  @Test
  @Rules("R4.2-recovery")
  void killsOnOneDatabaseNeverLoseAnAcknowledgedCommit() throws Exception {
    Tally t = campaign(false, KILLS / 2, SEED);
    assertThat(t.insideCommit).as(t.toString()).isPositive();
  }

  @Test
  @Rules("R4.2-recovery")
  void killsOnASplitStoreNeverLoseAnAcknowledgedCommit() throws Exception {
    Tally t = campaign(true, KILLS - KILLS / 2, SEED + 1);
    assertThat(t.insideCommit).as(t.toString()).isPositive();
    assertThat(t.betweenContentAndMark).as(t.toString()).isPositive();
  }

  /** What one campaign saw. */
  private static final class Tally {
    int kills;
    int insideCommit;
    int durableUnacknowledged;
    int rolledBack;
    int betweenContentAndMark;
    long generation;

    @Override
    public String toString() {
      return kills
          + " kills, generation "
          + generation
          + ": "
          + insideCommit
          + " inside a commit ("
          + rolledBack
          + " rolled back, "
          + durableUnacknowledged
          + " durable but unacknowledged), "
          + betweenContentAndMark
          + " after the content and before the mark";
    }
  }

  /** The lines a child printed before it died. */
  private static final class Seen {
    long ready = -1;
    long lastTry;
    long lastAck;
    long lastMid;

    void line(String line) {
      String[] p = line.split(" ", 2);
      switch (p[0]) {
        case "WARM" -> {}
        case "READY" -> ready = Long.parseLong(p[1]);
        case "TRY" -> lastTry = Long.parseLong(p[1]);
        case "ACK" -> lastAck = Long.parseLong(p[1]);
        case "MID" -> lastMid = Long.parseLong(p[1]);
        case "BAD" -> throw new AssertionError("recovery refused the store: " + p[1]);
        default -> throw new AssertionError("child said: " + line);
      }
    }
  }

  /** A started child and the reading end of its stdout. */
  private record Child(Process process, BufferedReader out) {
    static Child of(Process p) {
      return new Child(
          p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    }

    /** Waits until the child is warm, then lets it open the store. */
    void go(Seen seen) throws IOException {
      String line;
      while ((line = out.readLine()) != null && !line.equals("WARM")) {
        seen.line(line);
      }
      process.getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }

    void reap() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private Child spawn(boolean split, int restart, Path log) throws IOException {
    return Child.of(
        jvm.start(log, split ? "split" : "single", dir.toString(), Integer.toString(restart)));
  }

  private Tally campaign(boolean split, int kills, long seed) throws Exception {
    Random random = new Random(seed);
    Tally tally = new Tally();
    Path log = dir.resolve("child.log");
    Seen previous = null;
    long checked = 0; // the generation the parent last saw itself (a fresh store has none)
    Child next = spawn(split, 1, log);
    try {
      for (int k = 1; k <= kills; k++) {
        Seen seen = new Seen();
        Child child = next;
        child.go(seen);
        // The next child boots while this one runs: JVM start-up overlaps the commit loop.
        next = k < kills ? spawn(split, k + 1, log) : null;
        int acks = random.nextInt(6);
        // Every third kill is aimed: it fires the moment the child announces the window under
        // test (TRY: a commit starts; MID: split content is durable, the mark is next). The
        // others fire after a random delay.
        boolean aimed = k % 3 == 0;
        String trigger = split ? "MID" : "TRY";
        String line;
        while ((line = child.out().readLine()) != null) {
          seen.line(line);
          if (line.startsWith("READY")) {
            String where = "recovery " + k + " (seed " + seed + ")";
            if (previous != null) {
              judge(previous, seen.ready, split, tally, where);
            } else if (seen.ready != checked) {
              throw new AssertionError(where + ": loaded " + seen.ready + ", not " + checked);
            }
          }
          if (seen.ready >= 0
              && seen.lastAck >= seen.ready + acks
              && (!aimed || line.startsWith(trigger))) {
            break;
          }
        }
        if (!aimed) {
          LockSupport.parkNanos(random.nextInt(2_000) * 1_000L);
        }
        // SIGKILL through the handle: Process.destroyForcibly would also close our end of the
        // pipe, and the lines the child printed just before it died must still be read.
        child.process().toHandle().destroyForcibly();
        while ((line = child.out().readLine()) != null) {
          seen.line(line);
        }
        child.reap();
        if (seen.ready < 0) {
          throw new AssertionError("child " + k + " never became ready:\n" + tail(log));
        }
        if (k % 20 == 0 || k == kills) {
          String where = (split ? "split" : "single") + " kill " + k + " (seed " + seed + ")";
          checked = check(split, where);
          judge(seen, checked, split, tally, where);
          tally.generation = checked;
          previous = null;
        } else {
          previous = seen;
        }
      }
    } finally {
      if (next != null) {
        next.reap();
      }
    }
    tally.kills = kills;
    System.out.println((split ? "split store: " : "one database: ") + tally);
    return tally;
  }

  /**
   * The verdict on one kill, given what the killed child printed and the generation found after it:
   * the last acknowledged one, or (if the kill landed inside a commit) the one being tried.
   */
  private static void judge(Seen killed, long found, boolean split, Tally tally, String where) {
    boolean inside = killed.lastTry > killed.lastAck;
    if (!(found == killed.lastAck || (inside && found == killed.lastTry))) {
      throw new AssertionError(
          where
              + ": found generation "
              + found
              + " after TRY "
              + killed.lastTry
              + " ACK "
              + killed.lastAck);
    }
    if (inside) {
      tally.insideCommit++;
      if (found == killed.lastTry) {
        tally.durableUnacknowledged++;
      } else {
        tally.rolledBack++;
      }
      if (split && killed.lastMid == killed.lastTry) {
        tally.betweenContentAndMark++;
      }
    }
  }

  /** Opens the store in the parent, verifies it as recovery would and walks the whole trace. */
  private long check(boolean split, String where) {
    StoreOptions options = StoreOptions.defaults(InstantSource.fixed(Instant.EPOCH));
    try (JdbcStore store = KillChild.open(split, dir, options)) {
      StoredRun run = store.load(KillChild.TASK, KillChild.RUN).orElseThrow();
      KillChild.problem(run)
          .ifPresent(
              p -> {
                throw new AssertionError(where + ": " + p);
              });
      AuditReport audit =
          TraceAudit.verify(store, KillChild.TASK, KillChild.RUN, KillChild.claimedTrace(run));
      if (!audit.intact()) {
        throw new AssertionError(where + ": " + audit.findings());
      }
      return run.generation();
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no child log: " + e + ")";
    }
  }
}
