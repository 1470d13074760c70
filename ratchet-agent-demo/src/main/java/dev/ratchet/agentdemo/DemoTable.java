package dev.ratchet.agentdemo;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** The agent demo's plain-text tables: a header, a rule, rows; columns padded to fit. */
final class DemoTable {
  private final List<String[]> lines = new ArrayList<>();

  DemoTable(String... header) {
    lines.add(header);
  }

  void row(Object... cells) {
    String[] r = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      r[i] = String.valueOf(cells[i]);
    }
    lines.add(r);
  }

  /** Rows, without the header. */
  int size() {
    return lines.size() - 1;
  }

  void print(PrintWriter out) {
    int columns = lines.get(0).length;
    int[] width = new int[columns];
    lines.forEach(
        r -> {
          for (int i = 0; i < columns; i++) {
            width[i] = Math.max(width[i], r[i].length());
          }
        });
    String[] rule = new String[columns];
    for (int i = 0; i < columns; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    List<String[]> all = new ArrayList<>(lines);
    all.add(1, rule);
    for (String[] r : all) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        b.append(r[i]).append(" ".repeat(width[i] - r[i].length() + 2));
      }
      out.println(b.toString().stripTrailing());
    }
  }
}
