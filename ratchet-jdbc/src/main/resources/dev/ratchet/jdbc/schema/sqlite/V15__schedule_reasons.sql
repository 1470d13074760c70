-- SQLite schema, version 15 (issue 39, ADR 0066): why a run was ended or parked at claim is on its
-- scheduling row, not only in a worker's log. reason is the worker's words (what happened and what
-- to do next), reason_at_ms when it was written; both NULL for a row nothing refused. The store's
-- single writer sets them with a park or finish under the run's lease and clears them at a claim
-- (Schedule.park, Schedule.finish, Schedule.claim), as PostgreSQL's functions do.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line.
-- description: scheduling rows say why a worker ended or parked them (reason, reason_at_ms)

ALTER TABLE ratchet_schedule ADD COLUMN reason TEXT;

ALTER TABLE ratchet_schedule ADD COLUMN reason_at_ms INTEGER;
