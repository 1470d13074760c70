package dev.ratchet.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The end-to-end harness (issues 9 and 16): prints, in one run, the cost of durability as a table
 * of ratios against raw commits measured side by side on the same machine, the same file and the
 * same durability ({@code synchronous=FULL}, WAL).
 *
 * <pre>
 * java -cp ... dev.ratchet.bench.Harness [--mode full|quick|smoke] [--out FILE] [--dir DIR] [--only 1,3]
 *     [--beside previous|slots]
 * </pre>
 *
 * <p>Figures: (1) write steps/s and checkpoint commits/s of one run; (2) the same with 1–64
 * concurrent runs and group commit; (3) step cost and recovery time at trace lengths 10–10,000; (4)
 * PostgreSQL; (5) heap per idle run and for 10,000; (6) commits and reads per write step; (7) the
 * peer, DBOS Transact, on the same PostgreSQL server. Where issue 16 set a goal and a floor, a
 * row's verdict says which it meets. See BENCHMARKS.md.
 */
public final class Harness {
  private static final Set<Integer> ALL = Set.of(1, 2, 3, 4, 5, 8);

  private Harness() {}

  public static void main(String[] args) throws IOException {
    HarnessConfig cfg = HarnessConfig.full();
    Path out = null;
    Path dir = null;
    Set<Integer> figures = ALL;
    SecondCommit beside = SecondCommit.PREVIOUS;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--mode" -> {
          String m = value(args, ++i);
          cfg =
              switch (m) {
                case "full" -> HarnessConfig.full();
                case "smoke" -> HarnessConfig.smoke();
                case "quick" -> HarnessConfig.quick();
                default -> throw new IllegalArgumentException("--mode full|quick|smoke, not " + m);
              };
        }
        case "--out" -> out = Path.of(value(args, ++i));
        case "--dir" -> dir = Path.of(value(args, ++i));
        case "--only" -> {
          figures = new TreeSet<>();
          for (String f : value(args, ++i).split(",")) {
            figures.add(Integer.parseInt(f.trim()));
          }
        }
        case "--beside" -> beside = SecondCommit.named(value(args, ++i));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    boolean temporary = dir == null;
    Path work = temporary ? Files.createTempDirectory("ratchet-bench") : dir;
    try {
      Report report = run(cfg, work, System.err, figures, beside);
      String table = report.toMarkdown();
      System.out.println(table);
      if (out != null) {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(out, table);
      }
    } finally {
      if (temporary) {
        deleteTree(work);
      }
    }
  }

  /** Runs every figure in {@code dir} (SQLite files are created there) and returns the table. */
  public static Report run(HarnessConfig cfg, Path dir, PrintStream progress) throws IOException {
    return run(cfg, dir, progress, ALL);
  }

  /**
   * Runs the chosen figures (1 includes 6, 2 adds the group-commit rows of 6). The raw baselines
   * use the checkpoint size figure 1 measures, or, without figure 1, the size of a short run on the
   * in-memory store (the same task and content, so the same size).
   */
  public static Report run(HarnessConfig cfg, Path dir, PrintStream progress, Set<Integer> figures)
      throws IOException {
    return run(cfg, dir, progress, figures, SecondCommit.PREVIOUS);
  }

  /** As above, with figure 7's second commit chosen ({@code --beside}). */
  private static Report run(
      HarnessConfig cfg, Path dir, PrintStream progress, Set<Integer> figures, SecondCommit beside)
      throws IOException {
    Files.createDirectories(dir);
    Log log = new Log(progress);
    Path file = dir.resolve("bench.db");
    Report report = new Report(Machine.describe(cfg, file));
    Stopwatch all = Stopwatch.start();
    SqliteThroughput sqlite = new SqliteThroughput(cfg, file, report, log);
    int size = figures.contains(1) ? sqlite.oneRun() : checkpointSize(cfg);
    log.line(elapsed("figures 1 and 6", all));
    if (figures.contains(2)) {
      sqlite.concurrentRuns(size);
      log.line(elapsed("figure 2", all));
    }
    if (figures.contains(3)) {
      new TraceLength(cfg, file, report, log).run(size);
      log.line(elapsed("figure 3", all));
    }
    if (figures.contains(4) || figures.contains(8)) {
      new Postgres(cfg, report, log, beside).run(size, checkpointSample(cfg), figures);
      log.line(elapsed("figures 4, 7 and 8", all));
    }
    if (figures.contains(5)) {
      new HeapFigure(cfg, dir.resolve("heap.db"), report, log).run();
      log.line(elapsed("figure 5", all));
    }
    report.note(
        String.format(
            Locale.ROOT,
            "mode %s: %d interleaved rounds of %d ms per throughput figure; every ratio is the"
                + " median of per-round ratios against the baseline measured in the same round",
            cfg.mode(),
            cfg.rounds(),
            cfg.roundMillis()));
    return report;
  }

  private static int checkpointSize(HarnessConfig cfg) {
    try (BenchStore memory = BenchStore.inMemory(cfg.contentChars())) {
      Driver d = memory.start("size-probe");
      BenchStore.Counts before = memory.counts();
      for (int i = 0; i < 20; i++) {
        d.writeStep();
      }
      return (int) Math.round(memory.counts().minus(before).meanCheckpointBytes());
    }
  }

  /** A real checkpoint of the same task and content (figure 4's baselines write its bytes). */
  private static String checkpointSample(HarnessConfig cfg) {
    try (BenchStore memory = BenchStore.inMemory(cfg.contentChars())) {
      Driver d = memory.start("sample-probe");
      for (int i = 0; i < 20; i++) {
        d.writeStep();
      }
      return memory.store.lastCheckpoint();
    }
  }

  private static String elapsed(String what, Stopwatch since) {
    return String.format(Locale.ROOT, "%s done at %.1f s", what, since.elapsedSeconds());
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
