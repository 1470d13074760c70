package dev.ratchet.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with left-aligned, space-padded columns. */
public final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(String... header) {
    this.header = List.of(header);
  }

  public Table row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, not " + header.size());
    }
    List<String> r = new ArrayList<>();
    for (Object c : cells) {
      r.add(c == null ? "-" : c.toString());
    }
    rows.add(r);
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  public void print(PrintWriter out) {
    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = header.get(i).length();
      for (List<String> r : rows) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    line(out, header, width);
    List<String> rule = new ArrayList<>();
    for (int w : width) {
      rule.add("-".repeat(w));
    }
    line(out, rule, width);
    for (List<String> r : rows) {
      line(out, r, width);
    }
  }

  private static void line(PrintWriter out, List<String> cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      b.append(c);
      if (i < cells.size() - 1) {
        b.append(" ".repeat(width[i] - c.length() + 2));
      }
    }
    out.println(b.toString().stripTrailing());
  }
}
