package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report is computed from the full-mode results files, never typed. */
class ReliabilityReportTest {
  @TempDir Path dir;

  @Test
  void theReportTotalsTheFullModeResultsAndListsSeedRangesKillsAndSittings() throws Exception {
    ResultsFile crash = new ResultsFile(dir, "crash", Mode.FULL);
    crash.append(
        new TrialResult(
            0,
            Map.of(
                "kills_seam",
                1L,
                "seam.after_intent_commit",
                1L,
                "races",
                1L,
                "races_one_winner",
                1L,
                "effects",
                3L),
            List.of()));
    crash.append(new TrialResult(1, Map.of("kills_sigkill", 2L, "effects", 3L), List.of()));
    crash.append(
        new TrialResult(5, Map.of("duplicates", 1L, "effects", 4L), List.of("effect twice")));
    new ResultsFile(dir, "crash", Mode.SMOKE)
        .append(new TrialResult(9, Map.of("kills_sigkill", 777L), List.of()));
    ResultsFile tamper = new ResultsFile(dir, "tamper", Mode.FULL);
    tamper.append(
        new TrialResult(
            0,
            Map.of(
                "mutations",
                4L,
                "refused",
                4L,
                "acting_attempts",
                4L,
                "acting_refused",
                3L,
                "acting_unchanged",
                1L),
            List.of()));
    Sittings.append(dir, "crash", Mode.FULL, "seeds [0, 6): ran 3");
    Path out = dir.resolve("RELIABILITY.md");

    ReliabilityReport.write(dir, out);

    String md = Files.readString(out);
    assertThat(md)
        .contains("| crash | 3 | 1 | 0–1, 5 | 1 | 0 | 0 | – | 1 of 1 (100.00 %) |")
        .contains("**Real SIGKILLs of worker JVMs: 3** (1 inside a crash window, 2 at an")
        .contains("| `AFTER_INTENT_COMMIT` | 1 |")
        .contains("Effects in the external ledgers: 10; **duplicates 1**")
        .contains("| tamper | 1 | 0 | 0 | – | – | – | 4 of 4 (100.00 %) | – |")
        .contains("crash: seeds [0, 6): ran 3")
        .contains("Under Sittings: each sitting behind these totals, with its commit;")
        .contains("`contention`: no full-mode trials recorded.")
        .contains("`failover-sync`: no full-mode trials recorded.")
        .contains("- **not met**: synchronous, ≥ 50 promotions: no failed trial, duplicate, lost")
        .contains("- **not met**: ≥ 10,000 crash trials")
        .contains(
            "- **not met**: SIGKILLs in every crash window of a receipted write (9 of the"
                + " runtime's 16;")
        .contains("- met: 100 % of tampered inputs refused")
        .contains("- met: acting path: every tried mutation refused or without effect (D20)")
        .contains("was tried on 4 mutations: **refused, or outputs and effects equal to")
        .contains("the unmutated control: 4 of 4 (100.00 %)**")
        .contains("unchanged 1); acted on a tampered record 0.")
        .contains("- **not met**: no failed trial, duplicate, lost receipt, lost run or regression")
        .contains("\"crash --seed-from 0 --trials 2 --full --results chaos-results\"")
        .contains("\"crash --seed-from 5 --trials 1 --full --results chaos-results\"")
        .contains("from the full-mode results in `" + dir.toString().replace('\\', '/') + "`")
        .contains("`report --results docs/reliability-results --out docs/RELIABILITY.md`")
        .doesNotContain("777"); // smoke results are not the published campaign
  }

  @Test
  void seedRangesCollapseContiguousRuns() {
    assertThat(ReliabilityReport.ranges(new TreeSet<>(List.of(0L, 1L, 2L, 7L, 9L, 10L))))
        .isEqualTo("0–2, 7, 9–10");
    assertThat(ReliabilityReport.ranges(new TreeSet<>())).isEqualTo("–");
  }

  @Test
  void anArchivedGzippedResultsFileReadsAsItsPlainFileAndBothAtOnceAreRefused() throws Exception {
    Path plainDir = dir.resolve("plain");
    ResultsFile plain = new ResultsFile(plainDir, "crash", Mode.FULL);
    plain.append(new TrialResult(3, Map.of("effects", 3L), List.of()));
    plain.append(new TrialResult(4, Map.of("effects", 2L), List.of("lost a receipt")));
    Path archive = dir.resolve("archive");
    Files.createDirectories(archive);
    try (var out =
        new java.util.zip.GZIPOutputStream(
            Files.newOutputStream(archive.resolve("crash-full.tsv.gz")))) {
      out.write(Files.readAllBytes(plain.path()));
    }

    ResultsFile archived = new ResultsFile(archive, "crash", Mode.FULL);
    assertThat(archived.read()).isEqualTo(plain.read()).hasSize(2);

    Files.copy(plain.path(), archived.path());
    org.assertj.core.api.Assertions.assertThatThrownBy(archived::read)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("crash-full.tsv.gz")
        .hasMessageContaining("unpack the archive");
  }
}
