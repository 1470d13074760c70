package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.RecordSet;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contention as processes (SPEC §5, §11 "with real processes and a real store"): two long-lived
 * child JVMs ({@link RaceChild}), each its own worker with its own connection pool, race {@value
 * #RACES} times on one generation of one run. Each race: both load the same generation and prepare
 * their own commit; then both are told to go at once (alternating who hears it first). Exactly one
 * commit wins every race; the other gets {@code LostRace} with the winner's generation.
 */
@RequiresPostgres
class PostgresProcessRaceTest {
  static final int RACES = 1000;
  static final String RUN = "process-race";

  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  @TempDir Path dir;

  /** One child: its pipes and its stderr log. */
  private record Child(String name, Process process, PrintStream in, BufferedReader out, Path log) {
    void send(String line) {
      in.println(line);
    }

    String receive() throws IOException {
      String line = out.readLine();
      if (line == null) {
        throw new IllegalStateException(
            name + " exited (" + process.isAlive() + "): " + Files.readString(log));
      }
      return line;
    }
  }

  private Child start(String name, dev.ratchet.store.Lease lease) throws IOException {
    dev.ratchet.store.Fence fence = lease.fence();
    Path log = dir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx64m"));
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(RaceChild.class.getName());
    cmd.addAll(
        List.of(
            Postgres.URL,
            Postgres.WORKER,
            Postgres.PASSWORD,
            SCHEMA.get().name,
            RUN,
            fence.owner(),
            Long.toString(fence.leaseVersion()),
            name));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    // The token goes to the child through its environment, never its command line (D21).
    pb.environment()
        .put(
            RaceChild.TOKEN_ENV, java.util.HexFormat.of().formatHex(lease.requireToken().secret()));
    Process p = pb.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    return new Child(
        name,
        p,
        new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8),
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)),
        log);
  }

  private static String classpath() {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> c :
        List.of(
            RaceChild.class,
            JdbcStore.class,
            dev.ratchet.error.RatchetException.class,
            org.postgresql.Driver.class,
            com.zaxxer.hikari.HikariDataSource.class,
            org.slf4j.LoggerFactory.class,
            org.sqlite.JDBC.class)) {
      try {
        entries.add(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void inEveryRaceBetweenTwoWorkerProcessesExactlyOneCommitWins() throws Exception {
    // Both processes hold the same live lease (one worker identity): only the generation decides.
    dev.ratchet.store.Lease fence;
    try (JdbcStore store = SCHEMA.get().openWorker()) {
      TestRun run = new TestRun(store, store, RUN);
      run.commit(0);
      fence = run.lease;
    }
    List<Child> children = List.of(start("A", fence), start("B", fence));
    List<String> problems = new ArrayList<>();
    int[] wins = new int[2];
    try {
      for (Child c : children) {
        assertThat(c.receive()).isEqualTo("OPEN");
      }
      for (int race = 0; race < RACES && problems.isEmpty(); race++) {
        long g = race + 1L;
        for (Child c : children) {
          c.send("PREP");
        }
        for (Child c : children) {
          String ready = c.receive();
          if (!ready.equals("READY " + g)) {
            problems.add("race " + race + ": " + c.name() + " said " + ready);
          }
        }
        // Both are told at once; alternate who hears it first.
        children.get(race % 2).send("GO");
        children.get(1 - race % 2).send("GO");
        List<String> results = List.of(children.get(0).receive(), children.get(1).receive());
        int won = 0;
        for (int i = 0; i < 2; i++) {
          if (results.get(i).equals("WON " + (g + 1))) {
            won++;
            wins[i]++;
          } else if (!results.get(i).equals("LOST " + (g + 1))) {
            problems.add("race " + race + ": " + children.get(i).name() + " " + results.get(i));
          }
        }
        if (won != 1) {
          problems.add("race " + race + ": " + won + " winners " + results);
        }
      }
    } finally {
      for (Child c : children) {
        c.send("EXIT");
        c.in().close();
      }
      for (Child c : children) {
        if (!c.process().waitFor(20, TimeUnit.SECONDS)) {
          c.process().destroyForcibly();
        }
      }
    }
    System.out.println(
        "process race: " + RACES + " races, A won " + wins[0] + ", B won " + wins[1]);
    assertThat(problems).isEmpty();
    try (JdbcStore store = SCHEMA.get().openWorker()) {
      var loaded = store.load(TestRun.TASK, RUN).orElseThrow();
      assertThat(loaded.generation()).isEqualTo(RACES + 1L);
      assertThat(loaded.head(RecordSet.TRACE).count()).isEqualTo(RACES);
    }
  }
}
