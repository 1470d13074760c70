package dev.ratchet.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The per-campaign sections of the reliability report, and the machine it ran on. */
final class ReportSections {
  private static final String CRASH =
      """
      - Trials (one run each): {trials} (ledger {kind.ledger}, workspace {kind.workspace}; \
      single-database store {stores_single}, split mark/content {stores_split}; every write \
      approval-gated in {approval_gated}).
      - **Real SIGKILLs of worker JVMs: {kills}** ({kills_seam} inside a crash window, \
      {kills_sigkill} at an arbitrary instant). Each killed a whole worker: runs crashed \
      {crashes} times ({crashes_collateral} of them runs that merely shared the killed worker).
      - Races of two workers for one run: {races}, with exactly one winner per committed \
      generation: {races_one_winner} (both workers won commits in {races_both_committed}); runs \
      on leases that lapsed under a stall: {fault.expiry} ({stalls} stalls); fenced attempts \
      retried: {retries.fenced}.
      - Effects in the external ledgers: {effects}; **duplicates {duplicates}**. Receipts the \
      adapters issued: {receipts_issued}, reconciled into their run {receipts_reconciled}, held \
      as review evidence {receipts_frozen_with_evidence}; **lost {lost_receipts}**. Runs \
      completed {completed}, needs_review {phase.needs_review}, **lost {lost_runs}**; generation \
      regressions {generation_regressions}.
      """;

  private static final String TAMPER =
      """
      - Mutations of stored checkpoints and trace entries: {mutations}; **refused fail-closed \
      with `CHECKPOINT`: {refused_share}**; accepted {accepted}; other codes or exception types \
      {unexpected}. Unmutated control loads: {control_checks}, all accepted unless a trial \
      failed. Bit flips SQLite itself refused (not counted): {refused_by_sqlite_constraints}.
      - The full readers above are `verify`/`inspect`. The acting path (`resume`: recovery, which \
      executes the approved pending write, then a new read and a replay of the run's write by its \
      key) was tried on {acting_attempts} mutations: **refused, or outputs and effects equal to \
      the unmutated control: {acting_share}** (refused with `CHECKPOINT` {acting_refused}; \
      refused with another code, files and ledger equal to the control's {acting_refused_other}; \
      unchanged {acting_unchanged}); acted on a tampered record {acting_used_tampered}.
      """;

  private static final String POSTGRES =
      """
      {trials} trial(s), {runs} runs on {workers} worker JVMs in all (+{kills_sigkill} SIGKILLed \
      and replaced), {db_restarts} immediate stops and restarts of the cluster; {stalls} stalls \
      past a 200–500 ms lease, {retries.fenced} fenced attempts; races (runs committed to by more \
      than one worker) {races}, exactly one winner per generation in {races_one_winner}. Effects \
      {effects}, **duplicates {duplicates}**; receipts issued {receipts_issued}, reconciled \
      {receipts_reconciled}, **lost {lost_receipts}**; completed {completed}, **lost runs \
      {lost_runs}**.
      """;

  private static final String FAILOVER =
      """
      {trials} trial(s), **{promotions} promotions** (`pg_ctl promote`) after \
      {kills_primary_sigkill} SIGKILLs of the primary ({replication_cuts} with the standby's WAL \
      receiver stopped first), {runs} runs on {workers} worker JVMs. Effects counted in the \
      services' ledgers {effects}, **duplicates {duplicates}**; receipts issued \
      {receipts_issued}, reconciled {receipts_reconciled}, evidence of a frozen run \
      {receipts_frozen_with_evidence}, of an intent lost with its generation \
      {receipts_lost_with_generations}, **lost {lost_receipts}**. **Acknowledged generations \
      lost {generations_lost}** (in {runs_lost_generations} run-promotions, \
      {losses_covering_effects} of them covering an effect); completed {completed}, **frozen \
      {frozen_runs}**, **lost runs {lost_runs}**; races {races}, exactly one winner per \
      generation and primary in {races_one_winner}.
      """;

  private static final Pattern COUNTER = Pattern.compile("\\{([a-z_.]+)\\}");

  private ReportSections() {}

  /** The template with each {@code {counter}} replaced by its total (0 when absent). */
  static String fill(String template, Map<String, Long> values) {
    Matcher m = COUNTER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = ReliabilityReport.n(values.getOrDefault(name, 0L));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }

  static void crash(StringBuilder b, ReliabilityReport.Campaign c) {
    b.append("## Crash campaign (SQLite, worker JVMs SIGKILLed)\n\n");
    if (c.trials() == 0) {
      b.append("No full-mode trials recorded.\n\n");
      return;
    }
    Map<String, Long> v = new HashMap<>(c.totals());
    v.put("trials", c.trials());
    v.put("kills", c.get("kills_seam") + c.get("kills_sigkill"));
    v.put("crashes", c.get("crashes_planned") + c.get("crashes_collateral"));
    b.append(fill(CRASH, v))
        .append("- Recoveries after a crash or takeover: ")
        .append(counters(c, "recovered."))
        .append(".\n\n")
        .append("| crash window | SIGKILLs there |\n|---|---:|\n");
    for (var e : c.totals().entrySet()) {
      if (e.getKey().startsWith("seam.")) {
        b.append("| `")
            .append(e.getKey().substring(5).toUpperCase(Locale.ROOT))
            .append("` | ")
            .append(ReliabilityReport.n(e.getValue()))
            .append(" |\n");
      }
    }
    b.append("| arbitrary instant (after 0–5 steps + 0–20 ms) | ")
        .append(ReliabilityReport.n(c.get("kills_sigkill")))
        .append(" |\n\n")
        .append("Under Sittings: each sitting behind these totals, with its commit;")
        .append(" [chaos.md](chaos.md) (\"Results\") says what each one ran on.\n\n")
        .append("Planned kills that did not happen because another kill came first: seam ")
        .append(ReliabilityReport.n(c.get("seam_not_reached")))
        .append(", instant ")
        .append(ReliabilityReport.n(c.get("sigkill_not_fired")))
        .append(".\n\n");
  }

  static void tamper(StringBuilder b, ReliabilityReport.Campaign c) {
    b.append("## Tamper campaign\n\n");
    if (c.trials() == 0) {
      b.append("No full-mode trials recorded.\n\n");
      return;
    }
    Map<String, Long> v = new HashMap<>(c.totals());
    String share = ReliabilityReport.share(c.get("refused"), c.get("mutations"));
    String acting =
        ReliabilityReport.share(
            c.get("acting_refused") + c.get("acting_refused_other") + c.get("acting_unchanged"),
            c.get("acting_attempts"));
    b.append(fill(TAMPER.replace("{refused_share}", share).replace("{acting_share}", acting), v))
        .append("\n| mutation kind | mutations |\n|---|---:|\n");
    for (var e : c.totals().entrySet()) {
      if (e.getKey().startsWith("kind.")) {
        b.append("| `")
            .append(e.getKey().substring(5))
            .append("` | ")
            .append(ReliabilityReport.n(e.getValue()))
            .append(" |\n");
      }
    }
    b.append('\n');
  }

  static void postgres(
      StringBuilder b, ReliabilityReport.Campaign contention, ReliabilityReport.Campaign fault) {
    b.append("## PostgreSQL: contention and database fault\n\n");
    items(b, List.of(contention, fault), POSTGRES);
  }

  /** One list item per campaign: its totals in {@code template}, or that it has none. */
  private static void items(
      StringBuilder b, List<ReliabilityReport.Campaign> campaigns, String template) {
    for (ReliabilityReport.Campaign c : campaigns) {
      if (c.trials() == 0) {
        b.append("- `").append(c.name()).append("`: no full-mode trials recorded.\n");
        continue;
      }
      Map<String, Long> v = new HashMap<>(c.totals());
      v.put("trials", c.trials());
      b.append("- `").append(c.name()).append("`: ").append(fill(template, v));
    }
    b.append('\n');
  }

  /** Issue 43: promoted standbys, synchronous and asynchronous (ADRs 0120, 0121). */
  static void failover(
      StringBuilder b, ReliabilityReport.Campaign sync, ReliabilityReport.Campaign async) {
    b.append("## PostgreSQL failover: promoted standbys\n\n");
    items(b, List.of(sync, async), FAILOVER);
    boolean syncHolds =
        sync.get("promotions") >= 50
            && sync.failed() == 0
            && sync.get("duplicates") == 0
            && sync.get("generations_lost") == 0
            && sync.get("frozen_runs") == 0;
    boolean asyncHolds =
        async.get("promotions") >= 50
            && async.failed() == 0
            && async.get("duplicates") == 0
            && async.get("frozen_runs") <= async.get("losses_covering_effects");
    b.append(syncHolds ? "- met" : "- **not met**")
        .append(": synchronous, ≥ 50 promotions: no failed trial, duplicate, lost")
        .append(" acknowledged generation or frozen run\n")
        .append(asyncHolds ? "- met" : "- **not met**")
        .append(": asynchronous, ≥ 50 promotions: no failed trial or duplicate; frozen runs at")
        .append(" most the losses that covered an effect\n\n");
  }

  static void machine(StringBuilder b) {
    b.append("## Machine\n\n")
        .append("- CPU: ")
        .append(firstValue(Path.of("/proc/cpuinfo"), "model name"))
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores visible\n- Memory: ")
        .append(memory())
        .append("\n- OS: ")
        .append(System.getProperty("os.name"))
        .append(' ')
        .append(System.getProperty("os.version"))
        .append("\n- JDK: ")
        .append(System.getProperty("java.vendor"))
        .append(' ')
        .append(System.getProperty("java.version"))
        .append("\n- Shared with builds and other campaigns while they ran: wall times are loose,")
        .append(" and the load itself is part of the chaos (leases lapse under it).\n\n");
  }

  private static String counters(ReliabilityReport.Campaign c, String prefix) {
    StringBuilder s = new StringBuilder();
    c.totals()
        .forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                s.append(s.length() == 0 ? "" : ", ")
                    .append(k.substring(prefix.length()))
                    .append(' ')
                    .append(ReliabilityReport.n(v));
              }
            });
    return s.length() == 0 ? "none" : s.toString();
  }

  private static String memory() {
    String kb = firstValue(Path.of("/proc/meminfo"), "MemTotal").replace("kB", "").trim();
    try {
      return String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
    } catch (NumberFormatException e) {
      return "unknown";
    }
  }

  private static String firstValue(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith(key)) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux, or not readable: say so rather than guess
    }
    return "unknown";
  }
}
