-- SQLite schema, version 4 (SPEC D24, ADR 0060): a scheduling row per run for workers. The row is
-- a hint only (the signed checkpoint decides what the run does next): runnable (a worker may claim
-- it once its lease is free or lapsed), waiting (for an inbox item, or until wake_at_ms) or ended.
-- nudges counts the inbox items delivered since the row was made, so a worker that decided to wait
-- before an item arrived cannot put the run back to sleep over it. On SQLite one worker process
-- claims by polling; the trigger below makes a delivered item wake a waiting run. Released: never
-- edit this file; add the next version instead.
-- description: scheduling rows (runnable, waiting, ended); inbox items wake waiting runs

CREATE TABLE ratchet_schedule (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  driver TEXT NOT NULL,
  task_ref TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('runnable', 'waiting', 'ended')),
  wake_at_ms INTEGER,
  nudges INTEGER NOT NULL DEFAULT 0,
  updated_at_ms INTEGER NOT NULL,
  PRIMARY KEY (task_id, run_id));

CREATE INDEX ratchet_schedule_by_state ON ratchet_schedule (state, updated_at_ms);

CREATE TRIGGER ratchet_inbox_wakes AFTER INSERT ON ratchet_inbox
BEGIN UPDATE ratchet_schedule SET state = CASE WHEN state = 'ended' THEN 'ended' ELSE 'runnable' END, nudges = nudges + 1 WHERE task_id = NEW.task_id AND run_id = NEW.run_id; END;
