-- SQLite schema, version 1. Released: never edit this file; add the next version instead
-- (docs/store.md, "Adding a migration"). Statements end with ';' at the end of a line; the
-- text between is executed as written, so the database holds exactly these bytes.
-- description: marks, generations, checkpoints, records, leases, inbox

-- The high-water mark: one row per run, advanced only by compare-and-set.
CREATE TABLE ratchet_marks (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  generation INTEGER NOT NULL CHECK (generation >= 1),
  content_digest TEXT NOT NULL,
  environment_instance_id TEXT NOT NULL,
  PRIMARY KEY (task_id, run_id));

-- Which digest each retained generation had (mark side; drives retention).
CREATE TABLE ratchet_generations (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  generation INTEGER NOT NULL,
  content_digest TEXT NOT NULL,
  PRIMARY KEY (task_id, run_id, generation));

-- Checkpoint content, addressed by its digest (content side).
CREATE TABLE ratchet_checkpoints (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  content_digest TEXT NOT NULL,
  generation INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (task_id, run_id, content_digest));

-- The growing sets (D6): append-only, hash-chained, looked up by key.
CREATE TABLE ratchet_records (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  set_name TEXT NOT NULL,
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  record_key TEXT NOT NULL,
  body TEXT NOT NULL,
  chain TEXT NOT NULL,
  PRIMARY KEY (task_id, run_id, set_name, sequence));

CREATE UNIQUE INDEX ratchet_records_by_key
  ON ratchet_records (task_id, run_id, set_name, record_key);

-- Leases (D8): expiry judged on the injected clock, in epoch milliseconds.
CREATE TABLE ratchet_leases (
  run_id TEXT NOT NULL PRIMARY KEY,
  owner TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  expires_at_ms INTEGER NOT NULL,
  held INTEGER NOT NULL CHECK (held IN (0, 1)));

-- Operator decisions waiting for the lease holder (D12), by nonce.
CREATE TABLE ratchet_inbox (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  nonce TEXT NOT NULL,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,
  envelope TEXT NOT NULL,
  PRIMARY KEY (task_id, run_id, nonce));

CREATE UNIQUE INDEX ratchet_inbox_by_position
  ON ratchet_inbox (task_id, run_id, position);
