package dev.ratchet.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads a dialect's migrations from the versioned {@code .sql} resources under {@code
 * dev/ratchet/jdbc/schema/<dialect>/}: {@code migrations.txt} lists the files oldest first, one
 * {@code V<n>__<name>.sql} a line, contiguous from V1. A file starts with comment lines, one of
 * them {@code -- description: <text>} (the row written into {@code ratchet_schema}); a statement
 * ends with {@code ;} at the end of a line outside a {@code $$} body, and the lines between are
 * executed as written, so the database holds exactly the file's bytes. Comment lines between
 * statements are dropped. Never edit a released file: add the next version (docs/store.md).
 */
final class SchemaResources {
  private static final String ROOT = "/dev/ratchet/jdbc/schema/";
  private static final Pattern FILE = Pattern.compile("V([1-9][0-9]*)__[a-z0-9_]+\\.sql");
  private static final Pattern TABLE = Pattern.compile("^CREATE TABLE ([a-z_]+) \\(");
  private static final String DESCRIPTION = "-- description: ";

  private SchemaResources() {}

  /** The migrations of {@code dialect}, each {@code {key}} of {@code substitutions} replaced. */
  static List<Migration> load(String dialect, Map<String, String> substitutions) {
    List<Migration> out = new ArrayList<>();
    for (String name : read(dialect + "/migrations.txt").lines().map(String::strip).toList()) {
      if (name.isEmpty()) {
        continue;
      }
      Matcher m = FILE.matcher(name);
      if (!m.matches() || Integer.parseInt(m.group(1)) != out.size() + 1) {
        throw new IllegalStateException(
            "schema resource " + dialect + "/" + name + " is not V" + (out.size() + 1) + "__*.sql");
      }
      out.add(parse(out.size() + 1, dialect + "/" + name, substitutions));
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("no schema migrations for " + dialect);
    }
    return List.copyOf(out);
  }

  /** The tables the migrations create, in order of creation. */
  static List<String> tables(List<Migration> migrations) {
    List<String> out = new ArrayList<>();
    for (Migration m : migrations) {
      for (String sql : m.statements()) {
        Matcher t = TABLE.matcher(sql);
        if (t.find()) {
          out.add(t.group(1));
        }
      }
    }
    return List.copyOf(out);
  }

  private static Migration parse(int version, String path, Map<String, String> substitutions) {
    String description = null;
    List<String> statements = new ArrayList<>();
    StringBuilder current = null;
    boolean inBody = false;
    for (String line : read(path).split("\n", -1)) {
      if (current == null) {
        if (line.startsWith(DESCRIPTION) && description == null) {
          description = line.substring(DESCRIPTION.length());
        }
        if (line.isBlank() || line.startsWith("--")) {
          continue;
        }
        current = new StringBuilder();
      } else {
        current.append('\n');
      }
      inBody ^= (dollarQuotes(line) % 2) == 1;
      if (!inBody && line.endsWith(";")) {
        current.append(line, 0, line.length() - 1);
        statements.add(substitute(current.toString(), substitutions));
        current = null;
      } else {
        current.append(line);
      }
    }
    if (current != null || description == null) {
      throw new IllegalStateException(
          "schema resource " + path + ": unterminated statement or no '" + DESCRIPTION + "' line");
    }
    return new Migration(version, description, statements);
  }

  private static int dollarQuotes(String line) {
    int n = 0;
    for (int i = line.indexOf("$$"); i >= 0; i = line.indexOf("$$", i + 2)) {
      n++;
    }
    return n;
  }

  private static String substitute(String sql, Map<String, String> substitutions) {
    String out = sql;
    for (Map.Entry<String, String> e : substitutions.entrySet()) {
      out = out.replace("{" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  private static String read(String path) {
    try (InputStream in = SchemaResources.class.getResourceAsStream(ROOT + path)) {
      if (in == null) {
        throw new IllegalStateException("missing schema resource " + ROOT + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading schema resource " + ROOT + path, e);
    }
  }
}
