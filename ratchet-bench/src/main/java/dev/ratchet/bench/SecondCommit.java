package dev.ratchet.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The commit figure 7 runs beside the current one, put into a second, fully migrated schema so both
 * run in the same rounds (issue 38: a change to the step is kept only if it helps, measured side by
 * side against DBOS and against the previous schema). {@code --beside previous} (the default): the
 * body of {@code ratchet_commit} that version 19 replaced. {@code --beside slots}: ADR 0142's
 * checkpoint slots, version 19's body with retention's rows replaced by one slot upsert, and the
 * slot table. Same signature and grants either way.
 */
enum SecondCommit {
  PREVIOUS,
  SLOTS;

  private static final String MIGRATIONS = "/dev/ratchet/jdbc/schema/postgresql/";
  private static final String PREVIOUS_BODY = MIGRATIONS + "V10__retention_from_the_mark.sql";
  private static final String CURRENT_BODY =
      MIGRATIONS + "V19__commit_checks_what_only_the_server_can.sql";
  private static final String SLOTS_PARTS = "/dev/ratchet/bench/checkpoint-slots.sql";

  private static final String START = "CREATE OR REPLACE FUNCTION ratchet_commit(";
  private static final String END = "END $$;";
  private static final String BODY_END = "END $$"; // where a definition() ends: no ';'
  // Version 19's body between these markers writes the generation row, then the records, then
  // content and retention: the slots keep the records and replace the rest.
  private static final String GENERATION_ROW = "  INSERT INTO ratchet_generations AS g";
  private static final String RECORDS = "  -- Records as the writer linked them";
  private static final String CONTENT_ROW = "  INSERT INTO ratchet_checkpoints AS k";
  private static final String TABLE = "CREATE TABLE {schema}.";

  /** "previous" or "slots", as {@code --beside} names it. */
  static SecondCommit named(String name) {
    return switch (name) {
      case "previous" -> PREVIOUS;
      case "slots" -> SLOTS;
      default -> throw new IllegalArgumentException("--beside previous|slots, not " + name);
    };
  }

  /** Puts this commit (and the table it needs) into {@code schema}; run as the schema's owner. */
  void install(Connection owner, String schema) throws SQLException {
    String quoted = '"' + schema + '"';
    try (Statement s = owner.createStatement()) {
      if (this == SLOTS) {
        s.execute(slotsPart(true).replace("{schema}", quoted));
      }
      s.execute(
          function()
              .replace(START, "CREATE OR REPLACE FUNCTION " + quoted + ".ratchet_commit(")
              .replace("{schema}", quoted));
    }
  }

  /** The {@code CREATE OR REPLACE FUNCTION ratchet_commit(…)} statement, {schema} unreplaced. */
  String function() {
    return this == SLOTS
        ? withSlots(definition(CURRENT_BODY), slotsPart(false))
        : definition(PREVIOUS_BODY);
  }

  /** The slot table's statement, or the upsert after it. */
  private static String slotsPart(boolean table) {
    String parts = text(SLOTS_PARTS);
    int from = marker(parts, TABLE, SLOTS_PARTS);
    int end = parts.indexOf(';', from) + 1;
    return table ? parts.substring(from, end) : parts.substring(end).strip();
  }

  /** How the figure names this side. */
  String label() {
    return this == SLOTS ? "checkpoint slots' commit (ADR 0142)" : "version 10's commit";
  }

  /** What differs between the two schemas, for the row's note. */
  String differs() {
    return this == SLOTS
        ? "the commit function differs and writes slots instead of generation and content rows"
            + " (a second schema, same grants)"
        : "only the commit function differs (a second schema, same tables and grants)";
  }

  private static String withSlots(String current, String upsert) {
    int generation = marker(current, GENERATION_ROW, CURRENT_BODY);
    int records = marker(current, RECORDS, CURRENT_BODY);
    int content = marker(current, CONTENT_ROW, CURRENT_BODY);
    int end = marker(current, BODY_END, CURRENT_BODY);
    return current.substring(0, generation)
        + current.substring(records, content)
        + "  "
        + upsert
        + "\n"
        + current.substring(end);
  }

  private static String definition(String resource) {
    String text = text(resource);
    int from = marker(text, START, resource);
    int to = text.indexOf(END, from);
    if (to < 0) {
      throw new IllegalStateException(resource + " holds no whole ratchet_commit definition");
    }
    return text.substring(from, to + BODY_END.length());
  }

  private static int marker(String text, String marker, String resource) {
    int at = text.indexOf(marker);
    if (at < 0) {
      throw new IllegalStateException(resource + " no longer holds '" + marker.strip() + "'");
    }
    return at;
  }

  private static String text(String resource) {
    try (InputStream in = SecondCommit.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no " + resource + " on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
