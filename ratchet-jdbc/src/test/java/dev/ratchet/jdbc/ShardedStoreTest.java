package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store over several databases adds to the contracts (issue 44): each run lives wholly in
 * the one database it was placed on, a change of the cluster list moves no run, claims go oldest
 * first across databases, and a database that cannot be opened makes only its runs wait.
 */
class ShardedStoreTest {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final int RUNS = 24;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final MonotonicClock rests = MonotonicClock.of(clock);

  private Cluster cluster(String name) {
    return new Cluster(name, Database.sqlite(dir.resolve(name + ".db")));
  }

  private ShardedStore open(OpenMode mode, String... names) {
    List<Cluster> clusters = new ArrayList<>();
    for (String n : names) {
      clusters.add(cluster(n));
    }
    return ShardedStore.open(clusters, TestStores.options(clock).withOpenMode(mode), rests);
  }

  private static String run(int i) {
    return String.format("run-%03d", i);
  }

  /** The runs each database holds on its own, read without the sharded store. */
  private List<String> rowsIn(String name) {
    try (JdbcStore one = JdbcStore.open(cluster(name).database(), TestStores.options(clock))) {
      return one.scheduled().stream().map(ScheduledRun::runId).toList();
    }
  }

  @Test
  void eachRunLivesWhollyOnTheClusterItWasPlacedOnAndBothClustersGetRuns() {
    Map<String, String> placed = new HashMap<>();
    try (ShardedStore store = open(OpenMode.CREATE, "a", "b")) {
      for (int i = 0; i < RUNS; i++) {
        store.schedule("t", run(i), "plan", "ref");
        placed.put(run(i), store.clusterOf(run(i)).orElseThrow());
        assertThat(placed.get(run(i))).isEqualTo(store.placementOf(run(i)));
      }
      assertThat(store.scheduled()).hasSize(RUNS);
      assertThat(store.clusterOf("never-made")).isEmpty();
    }
    List<String> inA = rowsIn("a");
    List<String> inB = rowsIn("b");
    assertThat(inA).isNotEmpty().doesNotContainAnyElementsOf(inB);
    assertThat(inB).isNotEmpty();
    assertThat(inA.size() + inB.size()).isEqualTo(RUNS);
    inA.forEach(r -> assertThat(placed.get(r)).isEqualTo("a"));
    inB.forEach(r -> assertThat(placed.get(r)).isEqualTo("b"));
  }

  @Test
  void aChangeOfTheClusterListMovesNoRunAndOnlyNewRunsGoToTheNewCluster() {
    Map<String, String> placed = new HashMap<>();
    try (ShardedStore store = open(OpenMode.CREATE, "a", "b")) {
      for (int i = 0; i < RUNS; i++) {
        store.schedule("t", run(i), "plan", "ref");
        placed.put(run(i), store.clusterOf(run(i)).orElseThrow());
      }
    }
    // A third cluster, and the list in another order: hashing now ranks c first for some old ids.
    try (ShardedStore store = open(OpenMode.CREATE, "c", "b", "a")) {
      int rankedElsewhere = 0;
      for (int i = 0; i < RUNS; i++) {
        assertThat(store.clusterOf(run(i))).as(run(i)).contains(placed.get(run(i)));
        rankedElsewhere += store.placementOf(run(i)).equals(placed.get(run(i))) ? 0 : 1;
      }
      assertThat(rankedElsewhere).as("some old runs now rank c first").isPositive();
      // Scheduling an old id again finds it where it is and refuses it there.
      Throwable again = catchThrowable(() -> store.schedule("t", run(0), "plan", "other"));
      assertThat(((RatchetException) again).code()).isEqualTo(ErrorCode.CONTRACT);
      for (int i = RUNS; i < 3 * RUNS; i++) {
        store.schedule("t", run(i), "plan", "ref");
      }
      // Every claim finds its run on the cluster that holds it; nothing moved.
      int claimed = 0;
      for (Optional<Claim> c = store.claim("w1", TTL); c.isPresent(); c = store.claim("w1", TTL)) {
        store.finish(c.get(), c.get().lease());
        claimed++;
      }
      assertThat(claimed).isEqualTo(3 * RUNS);
    }
    assertThat(rowsIn("c")).isNotEmpty().allMatch(r -> !placed.containsKey(r));
    placed.forEach((r, c) -> assertThat(rowsIn(c)).contains(r));
  }

  @Test
  void claimsTakeTheLongestWaitingRunOfAllClustersFirst() {
    List<String> order = new ArrayList<>();
    try (ShardedStore store = open(OpenMode.CREATE, "a", "b")) {
      for (int i = 0; i < RUNS; i++) {
        store.schedule("t", run(i), "plan", "ref");
        clock.advance(Duration.ofMillis(10));
      }
      for (Optional<Claim> c = store.claim("w1", TTL); c.isPresent(); c = store.claim("w1", TTL)) {
        order.add(c.get().runId());
        store.finish(c.get(), c.get().lease());
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      expected.add(run(i));
    }
    assertThat(order).containsExactlyElementsOf(expected);
    assertThat(rowsIn("a")).isNotEmpty();
    assertThat(rowsIn("b")).isNotEmpty();
  }

  @Test
  void aClusterThatCannotBeOpenedMakesOnlyItsRunsWaitAndTheyGoOnWhenItIsBack() throws Exception {
    Map<String, String> placed = new HashMap<>();
    try (ShardedStore store = open(OpenMode.CREATE, "a", "b")) {
      for (int i = 0; i < RUNS; i++) {
        store.schedule("t", run(i), "plan", "ref");
        placed.put(run(i), store.clusterOf(run(i)).orElseThrow());
      }
    }
    Path b = dir.resolve("b.db");
    Path away = dir.resolve("b.db.away");
    Files.move(b, away);
    Files.writeString(b, "not a database"); // b answers nothing a store could use
    try (ShardedStore store = open(OpenMode.MUST_EXIST, "a", "b")) {
      String onB =
          placed.entrySet().stream()
              .filter(e -> e.getValue().equals("b"))
              .findFirst()
              .orElseThrow()
              .getKey();
      RatchetException lookup = (RatchetException) catchThrowable(() -> store.current(onB));
      assertThat(lookup.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(lookup.getMessage()).contains("run '" + onB + "'").contains("cluster b");
      RatchetException listing = (RatchetException) catchThrowable(store::scheduled);
      assertThat(listing.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);

      // Claims skip b: every run of a is claimed, none of b.
      List<String> claimed = new ArrayList<>();
      for (Optional<Claim> c = store.claim("w1", TTL); c.isPresent(); c = store.claim("w1", TTL)) {
        claimed.add(c.get().runId());
        store.finish(c.get(), c.get().lease());
      }
      assertThat(claimed).isNotEmpty().allMatch(r -> placed.get(r).equals("a"));
      assertThat(claimed).hasSize((int) placed.values().stream().filter("a"::equals).count());

      // b comes back: once its rest is over it is opened again and its runs are claimed.
      Files.move(away, b, StandardCopyOption.REPLACE_EXISTING);
      clock.advance(Duration.ofSeconds(6));
      List<String> later = new ArrayList<>();
      for (Optional<Claim> c = store.claim("w1", TTL); c.isPresent(); c = store.claim("w1", TTL)) {
        later.add(c.get().runId());
        store.finish(c.get(), c.get().lease());
      }
      assertThat(later).isNotEmpty().allMatch(r -> placed.get(r).equals("b"));
      assertThat(claimed.size() + later.size()).isEqualTo(RUNS);
      assertThat(store.clusterOf(onB)).contains("b");
    }
  }

  @Test
  void noClusterReachableIsUnavailableAndACreatingOpenNeedsEveryCluster() throws Exception {
    Files.writeString(dir.resolve("a.db"), "not a database");
    Files.writeString(dir.resolve("b.db"), "not a database either");
    RatchetException none =
        (RatchetException) catchThrowable(() -> open(OpenMode.MUST_EXIST, "a", "b"));
    assertThat(none.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    RatchetException create =
        (RatchetException) catchThrowable(() -> open(OpenMode.CREATE, "c", "b"));
    assertThat(create.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(create.getMessage()).contains("cluster b");
  }

  @Test
  void aClusterListIsParsedStrictlyAndNeverEchoesAUrl() {
    assertThat(
            Cluster.parse(
                "--store",
                "a=jdbc:postgresql://h1:5432/db  b=jdbc:postgresql://h2:5432,h3:5432/db"))
        .extracting(Cluster.Entry::name)
        .containsExactly("a", "b");
    for (String bad :
        List.of(
            "a=jdbc:postgresql://h/db",
            "a=jdbc:postgresql://h/db a=jdbc:postgresql://h/other",
            "A=jdbc:postgresql://h/db b=jdbc:postgresql://h/db",
            "a=jdbc:postgresql://h/db b=sqlite:secret-path")) {
      RatchetException e = (RatchetException) catchThrowable(() -> Cluster.parse("--store", bad));
      assertThat(e.code()).as(bad).isEqualTo(ErrorCode.CONTRACT);
      assertThat(e.getMessage()).startsWith("--store: ").doesNotContain("secret-path");
    }
  }
}
