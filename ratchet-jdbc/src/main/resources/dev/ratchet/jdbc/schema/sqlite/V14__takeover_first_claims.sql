-- SQLite schema, version 14 (issue 38, ADR 0065, amends ADR 0060): a claim takes a run whose lease
-- lapsed while held (its worker died or stalled) before any run nobody holds; this partial index
-- keeps that first look small (it holds only held leases). The claim itself is the store's single
-- writer's transaction (Schedule.claim).
-- Released: never edit this file; add the next version instead.
-- description: takeover-first claims (index of held leases by expiry)

CREATE INDEX ratchet_leases_held_expiry ON ratchet_leases (expires_at_ms) WHERE held = 1;
