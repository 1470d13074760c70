package dev.ratchet.harness.demo;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The demo's plain-text tables: a header, a rule, left-aligned columns two spaces apart. */
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

  void print(PrintWriter out) {
    int columns = lines.get(0).length;
    int[] width = new int[columns];
    for (String[] l : lines) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], l[i].length());
      }
    }
    String[] rule = new String[columns];
    for (int i = 0; i < columns; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    List<String[]> all = new ArrayList<>(lines);
    all.add(1, rule);
    for (String[] l : all) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        b.append(String.format(Locale.ROOT, "%-" + (width[i] + 2) + "s", l[i]));
      }
      out.println(b.toString().stripTrailing());
    }
  }
}
