package dev.ratchet.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The per-campaign sections of the reliability report, and the machine it ran on. */
final class ReportSections {
  private ReportSections() {}

  static void crash(StringBuilder b, ReliabilityReport.Campaign c) {
    b.append("## Crash campaign (SQLite, worker JVMs SIGKILLed)\n\n");
    if (c.trials() == 0) {
      b.append("No full-mode trials recorded.\n\n");
      return;
    }
    long seamKills = c.get("kills_seam");
    long instantKills = c.get("kills_sigkill");
    b.append("- Trials (one run each): ")
        .append(ReliabilityReport.n(c.trials()))
        .append(" (ledger ")
        .append(ReliabilityReport.n(c.get("kind.ledger")))
        .append(", workspace ")
        .append(ReliabilityReport.n(c.get("kind.workspace")))
        .append("; single-database store ")
        .append(ReliabilityReport.n(c.get("stores_single")))
        .append(", split mark/content ")
        .append(ReliabilityReport.n(c.get("stores_split")))
        .append("; every write approval-gated in ")
        .append(ReliabilityReport.n(c.get("approval_gated")))
        .append(").\n")
        .append("- **Real SIGKILLs of worker JVMs: ")
        .append(ReliabilityReport.n(seamKills + instantKills))
        .append("** (")
        .append(ReliabilityReport.n(seamKills))
        .append(" inside a crash window, ")
        .append(ReliabilityReport.n(instantKills))
        .append(" at an arbitrary instant). Each killed a whole worker: runs crashed ")
        .append(ReliabilityReport.n(c.get("crashes_planned") + c.get("crashes_collateral")))
        .append(" times (")
        .append(ReliabilityReport.n(c.get("crashes_collateral")))
        .append(" of them runs that merely shared the killed worker).\n")
        .append("- Races of two workers for one run: ")
        .append(ReliabilityReport.n(c.get("races")))
        .append(", with exactly one winner per committed generation: ")
        .append(ReliabilityReport.n(c.get("races_one_winner")))
        .append(" (both workers won commits in ")
        .append(ReliabilityReport.n(c.get("races_both_committed")))
        .append("); runs on leases that lapsed under a stall: ")
        .append(ReliabilityReport.n(c.get("fault.expiry")))
        .append(" (")
        .append(ReliabilityReport.n(c.get("stalls")))
        .append(" stalls); fenced attempts retried: ")
        .append(ReliabilityReport.n(c.get("retries.fenced")))
        .append(".\n")
        .append("- Effects in the external ledgers: ")
        .append(ReliabilityReport.n(c.get("effects")))
        .append("; **duplicates ")
        .append(ReliabilityReport.n(c.get("duplicates")))
        .append("**. Receipts the adapters issued: ")
        .append(ReliabilityReport.n(c.get("receipts_issued")))
        .append(", reconciled into their run ")
        .append(ReliabilityReport.n(c.get("receipts_reconciled")))
        .append(", held as review evidence ")
        .append(ReliabilityReport.n(c.get("receipts_frozen_with_evidence")))
        .append("; **lost ")
        .append(ReliabilityReport.n(c.get("lost_receipts")))
        .append("**. Runs completed ")
        .append(ReliabilityReport.n(c.get("completed")))
        .append(", needs_review ")
        .append(ReliabilityReport.n(c.get("phase.needs_review")))
        .append(", **lost ")
        .append(ReliabilityReport.n(c.get("lost_runs")))
        .append("**; generation regressions ")
        .append(ReliabilityReport.n(c.get("generation_regressions")))
        .append(".\n")
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
        .append(ReliabilityReport.n(instantKills))
        .append(" |\n\n")
        .append("Several sittings on different commits make up these totals (see Sittings);")
        .append(" [chaos.md](chaos.md) says what changed between them.\n\n")
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
    b.append("- Mutations of stored checkpoints and trace entries: ")
        .append(ReliabilityReport.n(c.get("mutations")))
        .append("; **refused fail-closed with `CHECKPOINT`: ")
        .append(ReliabilityReport.share(c.get("refused"), c.get("mutations")))
        .append("**; accepted ")
        .append(ReliabilityReport.n(c.get("accepted")))
        .append("; other codes or exception types ")
        .append(ReliabilityReport.n(c.get("unexpected")))
        .append(". Unmutated control loads: ")
        .append(ReliabilityReport.n(c.get("control_checks")))
        .append(
            ", all accepted unless a trial failed. Bit flips SQLite itself refused (not counted): ")
        .append(ReliabilityReport.n(c.get("refused_by_sqlite_constraints")))
        .append(".\n\n| mutation kind | mutations |\n|---|---:|\n");
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
    for (ReliabilityReport.Campaign c : List.of(contention, fault)) {
      if (c.trials() == 0) {
        b.append("- `").append(c.name()).append("`: no full-mode trials recorded.\n");
        continue;
      }
      b.append("- `")
          .append(c.name())
          .append("`: ")
          .append(ReliabilityReport.n(c.trials()))
          .append(" trial(s), ")
          .append(ReliabilityReport.n(c.get("runs")))
          .append(" runs on ")
          .append(ReliabilityReport.n(c.get("workers")))
          .append(" worker JVMs in all (+")
          .append(ReliabilityReport.n(c.get("kills_sigkill")))
          .append(" SIGKILLed and replaced), ")
          .append(ReliabilityReport.n(c.get("db_restarts")))
          .append(" immediate stops and restarts of the cluster; ")
          .append(ReliabilityReport.n(c.get("stalls")))
          .append(" stalls past a 200–500 ms lease, ")
          .append(ReliabilityReport.n(c.get("retries.fenced")))
          .append(" fenced attempts; races (runs committed to by more than one worker) ")
          .append(ReliabilityReport.n(c.get("races")))
          .append(", exactly one winner per generation in ")
          .append(ReliabilityReport.n(c.get("races_one_winner")))
          .append(". Effects ")
          .append(ReliabilityReport.n(c.get("effects")))
          .append(", **duplicates ")
          .append(ReliabilityReport.n(c.get("duplicates")))
          .append("**; receipts issued ")
          .append(ReliabilityReport.n(c.get("receipts_issued")))
          .append(", reconciled ")
          .append(ReliabilityReport.n(c.get("receipts_reconciled")))
          .append(", **lost ")
          .append(ReliabilityReport.n(c.get("lost_receipts")))
          .append("**; completed ")
          .append(ReliabilityReport.n(c.get("completed")))
          .append(", **lost runs ")
          .append(ReliabilityReport.n(c.get("lost_runs")))
          .append("**.\n");
    }
    b.append('\n');
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
