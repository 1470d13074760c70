package dev.ratchet.jdbc.internal;

import java.util.List;

/**
 * The SQLite schema, one {@link Migration} per version. Never edit a released migration: add the
 * next version. docs/store.md describes every table.
 */
final class SqliteSchema {
  private SqliteSchema() {}

  /** Version 1, written before migrations moved to {@code .sql} resources. */
  private static final List<Migration> V1 =
      List.of(
          new Migration(
              1,
              "marks, generations, checkpoints, records, leases, inbox",
              List.of(
                  // The high-water mark: one row per run, advanced only by compare-and-set.
                  """
                  CREATE TABLE ratchet_marks (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    generation INTEGER NOT NULL CHECK (generation >= 1),
                    content_digest TEXT NOT NULL,
                    environment_instance_id TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id))""",
                  // Which digest each retained generation had (mark side; drives retention).
                  """
                  CREATE TABLE ratchet_generations (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    content_digest TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, generation))""",
                  // Checkpoint content, addressed by its digest (content side).
                  """
                  CREATE TABLE ratchet_checkpoints (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    content_digest TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    body TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, content_digest))""",
                  // The growing sets (D6): append-only, hash-chained, looked up by key.
                  """
                  CREATE TABLE ratchet_records (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    set_name TEXT NOT NULL,
                    sequence INTEGER NOT NULL CHECK (sequence >= 1),
                    record_key TEXT NOT NULL,
                    body TEXT NOT NULL,
                    chain TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, set_name, sequence))""",
                  """
                  CREATE UNIQUE INDEX ratchet_records_by_key
                    ON ratchet_records (task_id, run_id, set_name, record_key)""",
                  // Leases (D8): expiry judged on the injected clock, in epoch milliseconds.
                  """
                  CREATE TABLE ratchet_leases (
                    run_id TEXT NOT NULL PRIMARY KEY,
                    owner TEXT NOT NULL,
                    version INTEGER NOT NULL CHECK (version >= 1),
                    expires_at_ms INTEGER NOT NULL,
                    held INTEGER NOT NULL CHECK (held IN (0, 1)))""",
                  // Operator decisions waiting for the lease holder (D12), by nonce.
                  """
                  CREATE TABLE ratchet_inbox (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    envelope TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, nonce))""",
                  """
                  CREATE UNIQUE INDEX ratchet_inbox_by_position
                    ON ratchet_inbox (task_id, run_id, position)""")));

  /** Every version, oldest first (declared after {@link #V1}, which it reads). */
  static final List<Migration> MIGRATIONS =
      List.of(V1.get(0), SqlScript.load("sqlite", "V2__lease_tokens.sql", 2, ""));
}
