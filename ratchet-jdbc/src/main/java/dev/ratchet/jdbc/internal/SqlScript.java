package dev.ratchet.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A migration kept as a {@code .sql} resource under {@code dev/ratchet/jdbc/schema/<dialect>/},
 * named {@code V<version>__<name>.sql}. Its {@code -- description:} line names the step; statements
 * end with {@code ;} at the end of a line outside {@code $$} bodies, and the text between is run as
 * written (after {@code {schema}} is replaced by the quoted schema name).
 */
final class SqlScript {
  private static final String DESCRIPTION = "-- description:";

  private SqlScript() {}

  /** Loads {@code dialect/file} as migration {@code version}, with {@code {schema}} replaced. */
  static Migration load(String dialect, String file, int version, String quotedSchema) {
    String resource = "/dev/ratchet/jdbc/schema/" + dialect + "/" + file;
    String text;
    try (InputStream in = SqlScript.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing schema resource " + resource);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
    String description = null;
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inBody = false;
    for (String line : text.split("\n", -1)) {
      if (!inBody && line.startsWith(DESCRIPTION)) {
        description = line.substring(DESCRIPTION.length()).trim();
        continue;
      }
      if (!inBody && (line.isBlank() || line.startsWith("--"))) {
        continue;
      }
      current.append(line).append('\n');
      if (dollarQuotes(line) % 2 == 1) {
        inBody = !inBody;
      }
      if (!inBody && line.stripTrailing().endsWith(";")) {
        String sql = current.toString().strip();
        statements.add(
            sql.substring(0, sql.length() - 1).replace("{schema}", quotedSchema).strip());
        current.setLength(0);
      }
    }
    if (description == null || !current.toString().isBlank() || inBody) {
      throw new IllegalStateException(resource + ": no description, or an unterminated statement");
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
}
