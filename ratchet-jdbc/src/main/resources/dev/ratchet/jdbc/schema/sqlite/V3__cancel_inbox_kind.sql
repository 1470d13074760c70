-- SQLite schema, version 3 (issue 17): an operator's signed cancel is a third inbox kind. The
-- inbox refuses any other kind at insert, as PostgreSQL's ratchet_deliver does. Released: never
-- edit this file; add the next version instead. Statements end with ';' at the end of a line.
-- description: inbox kinds are APPROVAL, REVIEW_DECISION, CANCEL

CREATE TRIGGER ratchet_inbox_known_kind BEFORE INSERT ON ratchet_inbox
WHEN NEW.kind NOT IN ('APPROVAL', 'REVIEW_DECISION', 'CANCEL')
BEGIN SELECT RAISE(ABORT, 'ratchet_inbox: unknown kind'); END;
