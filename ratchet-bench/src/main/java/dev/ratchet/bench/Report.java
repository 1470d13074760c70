package dev.ratchet.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The harness's result: the table rows and the raw counts behind the commits-per-step figure. */
public final class Report {
  private final String header;
  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private CommitCounts commitCounts;

  Report(String header) {
    this.header = header;
  }

  /** The counts that commits per write step is computed from (figure 6, one run, no batching). */
  public record CommitCounts(
      long writeSteps, long checkpointCommits, long transactions, long leaseWrites) {}

  void add(Row row) {
    rows.add(row);
  }

  void note(String line) {
    notes.add(line);
  }

  void commitCounts(CommitCounts c) {
    this.commitCounts = c;
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  public CommitCounts commitCounts() {
    return commitCounts;
  }

  /** The table as Markdown, with the machine and configuration above it and notes below. */
  public String toMarkdown() {
    StringBuilder b = new StringBuilder(header).append('\n');
    b.append(
        "| # | measure | Ratchet | raw baseline (same run) | ratio | target | verdict | bound by |\n");
    b.append("|---|---|---|---|---|---|---|---|\n");
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(Row::figure)); // stable: measurement order within a figure
    for (Row r : sorted) {
      b.append("| ")
          .append(r.figure())
          .append(" | ")
          .append(r.measure())
          .append(" | ")
          .append(r.ratchet())
          .append(" | ")
          .append(r.baseline())
          .append(" | ")
          .append(r.measured() ? String.format(Locale.ROOT, "%.2f×", r.ratio()) : "—")
          .append(" | ")
          .append(r.target())
          .append(" | ")
          .append(r.verdict())
          .append(" | ")
          .append(r.boundBy())
          .append(" |\n");
    }
    Set<String> all = new LinkedHashSet<>(notes);
    for (Row r : sorted) {
      if (!r.note().isEmpty()) {
        all.add(r.figure() + " (" + r.measure() + "): " + r.note());
      }
    }
    if (!all.isEmpty()) {
      b.append('\n');
      for (String n : all) {
        b.append("- ").append(n).append('\n');
      }
    }
    return b.toString();
  }
}
