package dev.ratchet.jdbc;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The child JVM of {@link RealKillTest}. It warms up without touching the store (loads the SQLite
 * driver on an in-memory database), prints {@code WARM} and waits for a line on stdin, so the
 * parent can start the next child while the current one runs. Then it takes the run's lease over,
 * loads the run, and commits checkpoints in a loop until it is killed. It prints {@code TRY g}
 * before each commit, {@code MID g} when a split store's content is durable and the mark is next,
 * and {@code ACK g} once the commit returned. Its clock is fixed at hour {@code restart} so each
 * restart may take over the lease of the one killed before it.
 */
public final class KillChild {
  static final String TASK = "kill-task";
  static final String RUN = "kill-run";
  static final String ENV = "kill-env";
  static final int EVENTS_PER_COMMIT = 3;

  private KillChild() {}

  /**
   * Args: {@code single|split}, directory, restart number (1-based), and optionally a number of
   * commits after which to exit normally (the warm-up run that records the class-data archive).
   */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        Statement s = c.createStatement()) {
      s.execute("SELECT 1");
    }
    out.println("WARM");
    out.flush();
    if (new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine()
        == null) {
      return; // the parent gave up on this child
    }
    boolean split = args[0].equals("split");
    Path dir = Path.of(args[1]);
    int restart = Integer.parseInt(args[2]);
    long exitAfter = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
    long[] inFlight = {0};
    StoreOptions options =
        StoreOptions.defaults(InstantSource.fixed(Instant.EPOCH.plus(Duration.ofHours(restart))))
            .withOpenMode(restart == 1 ? OpenMode.CREATE : OpenMode.MUST_EXIST)
            .withCrashSeam(
                point -> {
                  out.println("MID " + inFlight[0]);
                  out.flush();
                });
    JdbcStore store = open(split, dir, options);
    Lease fence = store.takeOver(RUN, "child-" + restart, Duration.ofMinutes(30)).orElseThrow();
    Optional<StoredRun> loaded = store.load(TASK, RUN);
    long generation = loaded.map(StoredRun::generation).orElse(0L);
    SetHead trace = loaded.map(KillChild::claimedTrace).orElse(SetHead.EMPTY);
    Optional<String> problem = loaded.flatMap(KillChild::problem);
    if (problem.isPresent()) {
      out.println("BAD " + problem.get());
      out.flush();
      System.exit(3);
    }
    out.println("READY " + generation);
    out.flush();
    for (long n = 0; n < exitAfter; n++) {
      List<StoredRecord> records = events(trace);
      SetHead after = trace;
      for (StoredRecord r : records) {
        after = RecordChain.advance(after, r);
      }
      inFlight[0] = generation + 1;
      out.println("TRY " + inFlight[0]);
      out.flush();
      CommitResult result =
          store.commit(
              new CommitRequest(
                  new RunScope(TASK, RUN, ENV),
                  generation,
                  fence,
                  checkpoint(generation + 1, after),
                  records));
      if (result.kind() != CommitResult.Kind.COMMITTED) {
        out.println("REFUSED " + result);
        out.flush();
        System.exit(4);
      }
      generation++;
      trace = after;
      out.println("ACK " + generation);
      out.flush();
    }
    store.close();
  }

  static JdbcStore open(boolean split, Path dir, StoreOptions options) {
    return split
        ? JdbcStore.split(
            Database.sqlite(dir.resolve("marks.db")),
            Database.sqlite(dir.resolve("content.db")),
            options)
        : JdbcStore.open(Database.sqlite(dir.resolve("store.db")), options);
  }

  /** What the checkpoint says about itself: its generation and the trace it covers. */
  static String checkpoint(long generation, SetHead trace) {
    return Canonical.string(
        JsonObject.builder()
            .put("generation", generation)
            .put("trace_count", trace.count())
            .put("trace_head", trace.head())
            .put("padding", "p".repeat(4000))
            .build());
  }

  /**
   * What recovery checks after a kill: the content already matched the mark's digest (or {@code
   * load} would have thrown); the checkpoint must state the mark's generation, and the stored trace
   * must end where the checkpoint says (count and head).
   */
  static Optional<String> problem(StoredRun run) {
    long g = run.generation();
    if (claimedGeneration(run) != g) {
      return Optional.of("the checkpoint of generation " + g + " says " + claimedGeneration(run));
    }
    SetHead claimed = claimedTrace(run);
    if (claimed.count() != g * EVENTS_PER_COMMIT || !run.head(RecordSet.TRACE).equals(claimed)) {
      return Optional.of("stored trace " + run.head(RecordSet.TRACE) + " is not " + claimed);
    }
    return Optional.empty();
  }

  static long claimedGeneration(StoredRun run) {
    return Fields.asObject(Json.parse(run.envelope().text()), "checkpoint")
        .get("generation")
        .map(v -> ((JsonInt) v).value())
        .orElseThrow();
  }

  static SetHead claimedTrace(StoredRun run) {
    JsonObject o = Fields.asObject(Json.parse(run.envelope().text()), "checkpoint");
    long count = ((JsonInt) o.get("trace_count").orElseThrow()).value();
    String head = ((JsonString) o.get("trace_head").orElseThrow()).value();
    return new SetHead(count, head);
  }

  private static List<StoredRecord> events(SetHead head) {
    List<StoredRecord> out = new ArrayList<>();
    SetHead h = head;
    for (int i = 0; i < EVENTS_PER_COMMIT; i++) {
      long seq = h.count() + 1;
      String body =
          Canonical.string(
              JsonObject.builder().put("sequence", seq).put("note", "e".repeat(300)).build());
      StoredRecord r = RecordChain.append(h, RecordSet.TRACE, Long.toString(seq), body);
      out.add(r);
      h = RecordChain.advance(h, r);
    }
    return out;
  }
}
