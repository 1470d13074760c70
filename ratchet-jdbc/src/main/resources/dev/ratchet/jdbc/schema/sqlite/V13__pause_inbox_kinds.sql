-- SQLite schema, version 13 (issue 42, SPEC D37):
-- an operator's signed pause, unpause and task migration are inbox kinds beside approvals, reviewer
-- decisions and cancels. The version-3 trigger is replaced by one that knows every kind, so the
-- inbox still refuses any other kind at insert, as PostgreSQL's ratchet_deliver does.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line.
-- description: inbox kinds are APPROVAL, REVIEW_DECISION, CANCEL, PAUSE, UNPAUSE, MIGRATE

DROP TRIGGER ratchet_inbox_known_kind;

CREATE TRIGGER ratchet_inbox_known_kind BEFORE INSERT ON ratchet_inbox
WHEN NEW.kind NOT IN ('APPROVAL', 'REVIEW_DECISION', 'CANCEL', 'PAUSE', 'UNPAUSE', 'MIGRATE')
BEGIN SELECT RAISE(ABORT, 'ratchet_inbox: unknown kind'); END;
