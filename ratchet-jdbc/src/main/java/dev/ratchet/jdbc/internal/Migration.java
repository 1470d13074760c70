package dev.ratchet.jdbc.internal;

import java.util.List;

/** One versioned schema step: its statements run in one transaction with its version row. */
public record Migration(int version, String description, List<String> statements) {
  public Migration {
    if (version < 1) {
      throw new IllegalArgumentException("migration versions start at 1");
    }
    statements = List.copyOf(statements);
  }
}
