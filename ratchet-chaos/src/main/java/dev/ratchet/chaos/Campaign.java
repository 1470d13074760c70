package dev.ratchet.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Entry point of the chaos campaigns:
 *
 * <pre>
 * Campaign crash|tamper|contention|dbfault|failover-sync|failover-async --seed-from N --trials M
 *     --smoke|--full --results DIR
 *     [--canary] [--report FILE]
 * Campaign report --results DIR --out FILE
 * Campaign workers --smoke|--full [--seed S] [--runs R] [--kills K] [--work DIR]
 * Campaign fleet-bench --smoke|--full [--runs N] [--kills K] [--work DIR] [--out FILE]
 * </pre>
 *
 * The last two ({@link FleetCampaign}, {@link FleetBench}: real {@code ratchet worker} processes on
 * PostgreSQL, ADR 0063) are single seeded runs with their own exit code, not seed ranges.
 *
 * <p>Each trial is one seed; a trial's outcome depends on nothing but its seed and the mode (and,
 * for real kills, on process timing, which the seed steers but cannot fix). Results accumulate in
 * {@code DIR/<campaign>-<mode>.tsv}; seeds already recorded there are skipped, so a full campaign
 * resumes by seed range. Every failing trial prints the one command that reruns it. Exit code 0
 * when every trial of the range passed, 1 otherwise, 2 on a usage error. In full mode, {@code
 * --report} rewrites the reliability report from every full-mode results file of the directory.
 */
public final class Campaign {
  /** A campaign: runs its seeds under {@code work}, handing each judged trial to {@code done}. */
  interface Trials {
    void run(List<Long> seeds, Args args, Path work, Consumer<TrialResult> done) throws Exception;
  }

  /** A campaign whose trials run one at a time, each alone. */
  interface OneTrial {
    TrialResult run(long seed, Mode mode, boolean canary, Path work) throws Exception;
  }

  /** Parsed arguments. */
  record Args(
      String campaign,
      long seedFrom,
      long trials,
      Mode mode,
      Path results,
      boolean canary,
      Path report) {
    static Args parse(String[] args) {
      if (args.length == 0) {
        throw new IllegalArgumentException("missing campaign");
      }
      String campaign = args[0];
      long from = 0;
      long trials = 1;
      Mode mode = Mode.SMOKE;
      Path results = Path.of("target", "chaos");
      boolean canary = false;
      Path report = null;
      for (int i = 1; i < args.length; i++) {
        switch (args[i]) {
          case "--seed-from" -> from = Long.parseLong(args[++i]);
          case "--trials" -> trials = Long.parseLong(args[++i]);
          case "--smoke" -> mode = Mode.SMOKE;
          case "--full" -> mode = Mode.FULL;
          case "--results" -> results = Path.of(args[++i]);
          case "--canary" -> canary = true;
          case "--report", "--out" -> report = Path.of(args[++i]);
          default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
        }
      }
      if (trials < 1 || from < 0) {
        throw new IllegalArgumentException("--trials must be >= 1 and --seed-from >= 0");
      }
      if (report != null && mode != Mode.FULL && !campaign.equals("report")) {
        throw new IllegalArgumentException("--report: only full-mode results make the report");
      }
      if (campaign.equals("report") && report == null) {
        throw new IllegalArgumentException("report: --out FILE is required");
      }
      return new Args(campaign, from, trials, mode, results, canary, report);
    }

    /** The one command that reruns {@code seed} alone (into a separate results directory). */
    String reproduce(long seed) {
      return "mvn -B -Pchaos -pl ratchet-chaos -am package -DskipTests -Dchaos.args=\""
          + campaign
          + " --seed-from "
          + seed
          + " --trials 1 "
          + mode.flag()
          + (canary ? " --canary" : "")
          + " --results target/chaos-repro\"";
    }
  }

  /** What a range of trials produced, and the whole results file after it. */
  record Summary(
      List<TrialResult> range,
      int skipped,
      Map<String, Long> totals,
      long trialsInFile,
      long failedInFile) {
    boolean passed() {
      return range.stream().allMatch(TrialResult::passed);
    }
  }

  private Campaign() {}

  public static void main(String[] argv) throws Exception {
    if (argv.length > 0 && argv[0].equals("fleet-bench")) {
      FleetBench.main(java.util.Arrays.copyOfRange(argv, 1, argv.length));
      return;
    }
    if (argv.length > 0 && argv[0].equals("workers")) {
      FleetCampaign.main(java.util.Arrays.copyOfRange(argv, 1, argv.length));
      return;
    }
    Args args;
    try {
      args = Args.parse(argv);
      if (args.campaign().equals("report")) {
        ReliabilityReport.write(args.results(), args.report());
        System.out.println("wrote " + args.report() + " from " + args.results());
        return;
      }
      trials(args.campaign());
    } catch (IllegalArgumentException e) {
      System.err.println(
          "usage: Campaign crash|tamper|contention|dbfault|failover-sync|failover-async"
              + " --seed-from N --trials M --smoke|--full --results DIR [--canary] [--report FILE]\n"
              + "       Campaign report --results DIR --out FILE\n"
              + "       Campaign workers|fleet-bench --smoke|--full [options]");
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Summary s = run(args, System.out);
    System.exit(s.passed() ? 0 : 1);
  }

  static Trials trials(String campaign) {
    return switch (campaign) {
      case "tamper" -> oneAtATime(TamperCampaign::trial);
      case "crash" ->
          (seeds, args, work, done) -> CrashCampaign.run(seeds, args.canary(), work, done);
      case "contention" -> oneAtATime(ContentionCampaign::trial);
      case "dbfault" -> oneAtATime(ContentionCampaign::faultTrial);
      case "failover-sync" -> oneAtATime(FailoverCampaign::syncTrial);
      case "failover-async" -> oneAtATime(FailoverCampaign::asyncTrial);
      default -> throw new IllegalArgumentException("unknown campaign: " + campaign);
    };
  }

  /** Runs the range, appending each trial to the results file; never throws for a bad trial. */
  static Summary run(Args args, PrintStream out) {
    Trials trials = trials(args.campaign());
    ResultsFile file = new ResultsFile(args.results(), args.campaign(), args.mode());
    Set<Long> done = new HashSet<>();
    for (TrialResult r : file.read()) {
      done.add(r.seed());
    }
    List<TrialResult> range = new java.util.ArrayList<>();
    List<Long> todo = new java.util.ArrayList<>();
    for (long seed = args.seedFrom(); seed < args.seedFrom() + args.trials(); seed++) {
      if (!done.contains(seed)) {
        todo.add(seed);
      }
    }
    int skipped = (int) (args.trials() - todo.size());
    long started = System.nanoTime();
    String commit = Sittings.commit(); // the code that runs, before anyone edits the checkout
    Progress progress = new Progress(args.campaign(), todo.size(), started, out);
    Consumer<TrialResult> record =
        r -> {
          file.append(r);
          range.add(r);
          if (!r.passed()) {
            out.println("FAIL " + args.campaign() + " seed " + r.seed() + ": " + r.failures());
            out.println("  reproduce: " + args.reproduce(r.seed()));
          }
          progress.trialDone(r);
        };
    runAll(trials, todo, args, range, record);
    Map<String, Long> totals = new TreeMap<>();
    long inFile = 0;
    long failedInFile = 0;
    for (TrialResult r : file.read()) {
      inFile++;
      failedInFile += r.passed() ? 0 : 1;
      r.counters().forEach((k, v) -> totals.merge(k, v, Long::sum));
    }
    Summary s = new Summary(range, skipped, totals, inFile, failedInFile);
    String sitting =
        String.format(
            java.util.Locale.ROOT,
            "seeds [%d, %d): ran %d (%d skipped, already recorded), failed %d, %.1f s",
            args.seedFrom(),
            args.seedFrom() + args.trials(),
            range.size(),
            skipped,
            range.stream().filter(r -> !r.passed()).count(),
            (System.nanoTime() - started) / 1e9);
    out.println(
        args.campaign()
            + " "
            + args.mode().name().toLowerCase(java.util.Locale.ROOT)
            + " "
            + sitting);
    if (!range.isEmpty()) {
      Sittings.append(
          args.results(),
          args.campaign(),
          args.mode(),
          java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
              + " commit "
              + commit
              + (args.canary() ? " canary " : " ")
              + sitting);
    }
    out.println(
        "  results file "
            + file.path()
            + ": "
            + inFile
            + " trials, "
            + failedInFile
            + " failed; totals "
            + totals);
    if (args.report() != null) {
      ReliabilityReport.write(args.results(), args.report());
      out.println("  report written: " + args.report());
    }
    return s;
  }

  /** Runs the seeds; a campaign that breaks off fails every seed it had not judged. */
  private static void runAll(
      Trials trials,
      List<Long> todo,
      Args args,
      List<TrialResult> range,
      Consumer<TrialResult> record) {
    Path work = null;
    try {
      work = Files.createTempDirectory("ratchet-chaos-" + args.campaign() + "-");
      trials.run(todo, args, work, record);
    } catch (Throwable t) {
      Set<Long> judged = new HashSet<>();
      range.forEach(r -> judged.add(r.seed()));
      for (long seed : todo) {
        if (!judged.contains(seed)) {
          record.accept(new TrialResult(seed, Map.of(), List.of("campaign aborted: " + t)));
        }
      }
    } finally {
      if (work != null) {
        deleteTree(work);
      }
    }
  }

  /** Each seed in a directory of its own; a trial that throws is recorded as failed. */
  static Trials oneAtATime(OneTrial trial) {
    return (seeds, args, work, done) -> {
      for (long seed : seeds) {
        Path dir = Files.createDirectories(work.resolve("trial-" + seed));
        try {
          done.accept(trial.run(seed, args.mode(), args.canary(), dir));
        } catch (Throwable t) {
          done.accept(new TrialResult(seed, Map.of(), List.of("trial aborted: " + t)));
        } finally {
          deleteTree(dir);
        }
      }
    };
  }

  static void deleteTree(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
