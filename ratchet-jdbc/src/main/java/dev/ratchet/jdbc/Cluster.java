package dev.ratchet.jdbc;

import dev.ratchet.error.RatchetException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One database of a {@link ShardedStore}: a stable name and where it is (issue 44, ADR 0140). The
 * name, not the position in the configuration, is what placement hashes, so reordering the list
 * changes nothing; the runs a database holds are found where they are, so adding one moves none.
 *
 * @param name {@code [a-z][a-z0-9_-]{0,31}}, unique within a store
 */
public record Cluster(String name, Database database) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

  public Cluster {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(database, "database");
    if (!NAME.matcher(name).matches()) {
      throw RatchetException.contract(
          "cluster name '" + name + "' must match " + NAME.pattern() + " (a stable name)");
    }
  }

  /** One {@code NAME=URL} entry of a cluster list, before credentials make it a database. */
  public record Entry(String name, String url) {}

  /**
   * Parses a cluster list: {@code NAME=URL} entries separated by whitespace (a JDBC URL has none,
   * while PostgreSQL's own multi-host URLs use commas), at least two, names unique and valid.
   * {@code option} names the setting in error messages; a URL is never echoed (it may carry a
   * secret), only its position and name.
   */
  public static List<Entry> parse(String option, String text) {
    List<Entry> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    String[] parts = text.strip().split("\\s+");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      int eq = part.indexOf('=');
      String name = eq < 0 ? "" : part.substring(0, eq);
      String url = eq < 0 ? "" : part.substring(eq + 1);
      if (!NAME.matcher(name).matches() || !url.startsWith("jdbc:postgresql:")) {
        throw RatchetException.contract(
            option
                + ": cluster entry "
                + (i + 1)
                + " must be NAME=jdbc:postgresql://HOST:PORT/DB with NAME matching "
                + NAME.pattern());
      }
      if (!names.add(name)) {
        throw RatchetException.contract(option + ": cluster name '" + name + "' is given twice");
      }
      out.add(new Entry(name, url));
    }
    if (out.size() < 2) {
      throw RatchetException.contract(
          option + ": a cluster list names at least two clusters (one is a plain store URL)");
    }
    return List.copyOf(out);
  }
}
