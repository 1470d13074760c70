package dev.ratchet.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The previous body of {@code ratchet_commit}, put into a second, fully migrated schema, so that
 * figure 7 measures the current commit beside the one it replaced in the same rounds (issue 38: a
 * change to the step is kept only if it helps, measured side by side against DBOS and against the
 * previous schema). Only the function differs between the two schemas: same tables, indexes,
 * signature and grants.
 */
final class PreviousCommit {
  /** The migration whose {@code ratchet_commit} the current schema replaced (version 19's). */
  static final String MIGRATION = "V10__retention_from_the_mark.sql";

  private static final String ROOT = "/dev/ratchet/jdbc/schema/postgresql/";
  private static final String START = "CREATE OR REPLACE FUNCTION ratchet_commit(";
  private static final String END = "END $$;";

  private PreviousCommit() {}

  /** Replaces the function in {@code schema} by the previous body; run as the schema's owner. */
  static void install(Connection owner, String schema) throws SQLException {
    try (Statement s = owner.createStatement()) {
      String quoted = '"' + schema + '"';
      s.execute(
          definition()
              .replace(START, "CREATE OR REPLACE FUNCTION " + quoted + ".ratchet_commit(")
              .replace("{schema}", quoted));
    }
  }

  /** "schema 10's": how the figure names the previous side. */
  static String label() {
    return "version " + MIGRATION.substring(1, MIGRATION.indexOf("__")) + "'s commit";
  }

  private static String definition() {
    String text;
    try (InputStream in = PreviousCommit.class.getResourceAsStream(ROOT + MIGRATION)) {
      if (in == null) {
        throw new IllegalStateException("no migration " + MIGRATION + " on the class path");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int from = text.indexOf(START);
    int to = text.indexOf(END, from);
    if (from < 0 || to < 0) {
      throw new IllegalStateException(MIGRATION + " holds no ratchet_commit definition");
    }
    return text.substring(from, to + END.length() - 1);
  }
}
