-- SQLite schema, version 12 (issue 37): the marks are indexed by run id alone, so a caller that
-- names one run (CheckpointStore.runs(runId): status, resume, approve, a worker opening a claim)
-- looks it up by key instead of listing every run the store holds. The primary key (task_id,
-- run_id) cannot serve a lookup by run id.
-- Released: never edit this file; add the next version instead.
-- description: index the marks by run id (keyed lookup of one run)

CREATE INDEX ratchet_marks_by_run ON ratchet_marks (run_id);
