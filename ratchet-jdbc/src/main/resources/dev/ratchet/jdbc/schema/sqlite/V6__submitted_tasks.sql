-- SQLite schema, version 6 (SPEC D19, D24; ADR 0061): tasks submitted by operators. A submitted
-- task is an Ed25519-signed envelope (the operator's key) holding the whole task file, bound to its
-- run id; it waits here for the worker, which verifies the signature against its operator trust
-- root before the run's first commit. Submitting inserts it and the run's scheduling row in one
-- write transaction. Released: never edit this file; add the next version instead.
-- description: submitted tasks

CREATE TABLE ratchet_submissions (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  driver TEXT NOT NULL,
  envelope TEXT NOT NULL,
  submitted_at_ms INTEGER NOT NULL,
  PRIMARY KEY (task_id, run_id));
