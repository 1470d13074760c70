package dev.ratchet.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * The accumulating results of one campaign in one mode: a tab-separated line per trial ({@code
 * seed, PASS|FAIL, counters, first failure}), appended and flushed after every trial, so a full
 * campaign can run in several sittings over seed ranges and a killed campaign loses at most the
 * trial in flight. A seed already recorded is not run again.
 */
final class ResultsFile {
  private final Path file;

  ResultsFile(Path dir, String campaign, Mode mode) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.file =
        dir.resolve(campaign + "-" + mode.name().toLowerCase(java.util.Locale.ROOT) + ".tsv");
  }

  Path path() {
    return file;
  }

  /** Every recorded trial, in file order (a truncated last line from a killed run is skipped). */
  List<TrialResult> read() {
    List<TrialResult> out = new ArrayList<>();
    try {
      for (String line : lines()) {
        String[] p = line.split("\t", -1);
        if (p.length != 4 || line.startsWith("#")) {
          continue;
        }
        Map<String, Long> counters = new TreeMap<>();
        if (!p[2].isEmpty()) {
          for (String kv : p[2].split(",")) {
            String[] e = kv.split("=", 2);
            counters.put(e[0], Long.parseLong(e[1]));
          }
        }
        List<String> failures = p[1].equals("PASS") ? List.of() : List.of(p[3]);
        out.add(new TrialResult(Long.parseLong(p[0]), counters, failures));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * The file's lines; a campaign archived in the repository (D28) is kept gzipped beside where its
   * file would be. Both at once would make the report ambiguous, so that is refused.
   */
  private List<String> lines() throws IOException {
    Path gz = file.resolveSibling(file.getFileName() + ".gz");
    boolean plain = Files.exists(file);
    if (plain && Files.exists(gz)) {
      throw new IllegalStateException(
          "both " + file + " and " + gz + " exist: unpack the archive in place (gunzip) first");
    }
    if (plain) {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    }
    if (!Files.exists(gz)) {
      return List.of();
    }
    try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  void append(TrialResult r) {
    StringBuilder counters = new StringBuilder();
    new TreeMap<>(r.counters())
        .forEach(
            (k, v) ->
                counters.append(counters.length() == 0 ? "" : ",").append(k).append('=').append(v));
    String failure =
        r.passed()
            ? ""
            : (r.failures().size() + " failure(s): " + String.join(" | ", r.failures()))
                .replace('\t', ' ')
                .replace('\n', ' ');
    if (failure.length() > 2000) {
      failure = failure.substring(0, 2000) + "...";
    }
    String line =
        r.seed() + "\t" + (r.passed() ? "PASS" : "FAIL") + "\t" + counters + "\t" + failure + "\n";
    try {
      Files.writeString(
          file,
          line,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.SYNC);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
