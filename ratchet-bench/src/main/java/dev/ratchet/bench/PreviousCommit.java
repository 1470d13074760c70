package dev.ratchet.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The commit figure 7 measures beside the current one, put into a second, fully migrated schema so
 * both run in the same rounds (issue 38: a change to the step is kept only if it helps, measured
 * side by side against DBOS and against the previous schema). By default the previous body of
 * {@code ratchet_commit}; with {@code --beside slots} the candidate of ADR 0142 (checkpoint slots),
 * which adds its table to the second schema. Same signature and grants either way.
 */
enum PreviousCommit {
  /** The migration whose {@code ratchet_commit} the current schema replaced (version 19's). */
  PREVIOUS("/dev/ratchet/jdbc/schema/postgresql/V10__retention_from_the_mark.sql"),
  /** ADR 0142's candidate: a run's checkpoints in N + 1 slots, no generation rows, no deletes. */
  SLOTS("/dev/ratchet/bench/checkpoint-slots.sql");

  private static final String START = "CREATE OR REPLACE FUNCTION ratchet_commit(";
  private static final String END = "END $$;";
  private static final String TABLE = "CREATE TABLE {schema}.";

  private final String resource;

  PreviousCommit(String resource) {
    this.resource = resource;
  }

  /** "previous" or "slots", as {@code --beside} names it. */
  static PreviousCommit named(String name) {
    return switch (name) {
      case "previous" -> PREVIOUS;
      case "slots" -> SLOTS;
      default -> throw new IllegalArgumentException("--beside previous|slots, not " + name);
    };
  }

  /** Puts this commit (and a table it needs) into {@code schema}; run as the schema's owner. */
  void install(Connection owner, String schema) throws SQLException {
    String text = text();
    String quoted = '"' + schema + '"';
    try (Statement s = owner.createStatement()) {
      int table = text.indexOf(TABLE);
      if (table >= 0) {
        s.execute(text.substring(table, text.indexOf(';', table)).replace("{schema}", quoted));
      }
      s.execute(
          definition(text)
              .replace(START, "CREATE OR REPLACE FUNCTION " + quoted + ".ratchet_commit(")
              .replace("{schema}", quoted));
    }
  }

  /** How the figure names this side: "version 10's commit" or "checkpoint slots (ADR 0142)". */
  String label() {
    if (this == SLOTS) {
      return "checkpoint slots' commit (ADR 0142)";
    }
    String file = resource.substring(resource.lastIndexOf('/') + 1);
    return "version " + file.substring(1, file.indexOf("__")) + "'s commit";
  }

  /** What differs between the two schemas, for the row's note. */
  String differs() {
    return this == SLOTS
        ? "the commit function differs and writes slots instead of generation and content rows"
            + " (a second schema, same grants)"
        : "only the commit function differs (a second schema, same tables and grants)";
  }

  private String text() {
    try (InputStream in = PreviousCommit.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no " + resource + " on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String definition(String text) {
    int from = text.indexOf(START);
    int to = text.indexOf(END, from);
    if (from < 0 || to < 0) {
      throw new IllegalStateException(resource + " holds no ratchet_commit definition");
    }
    return text.substring(from, to + END.length() - 1);
  }
}
