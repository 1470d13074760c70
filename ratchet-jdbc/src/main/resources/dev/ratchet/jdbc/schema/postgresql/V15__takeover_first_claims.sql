-- PostgreSQL schema, version 15 (issue 38, ADR 0065, amends ADR 0060): a claim takes a run whose
-- lease lapsed while held (its worker died or stalled) before any run nobody holds, so a takeover
-- never waits behind the backlog of never-claimed runs; and a claim is one call that also returns
-- the run's signed submission (ratchet_claim_next), and a finished run's row is ended and its lease
-- released in one call (ratchet_finish_release). The partial index keeps the first look at lapsed
-- leases small: it holds only held leases. ratchet_claim and ratchet_finish (version 4) stay.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: takeover-first claims returning the submission; finish and release in one call

CREATE INDEX ratchet_leases_held_expiry ON ratchet_leases (expires_at_ms) WHERE held = 1;

-- Claims one run: first the one whose held lease lapsed longest ago, else as ratchet_claim (the
-- oldest-touched claimable run whose lease is free); rows another claim has locked are skipped.
-- Grants the lease to p_owner with the hash of the caller's token, marks the row runnable and
-- touched, and returns it with the run's submitted envelope (NULL when not submitted).
CREATE FUNCTION ratchet_claim_next(p_owner TEXT, p_ttl_ms BIGINT, p_token_hash TEXT)
RETURNS TABLE (o_task TEXT, o_run TEXT, o_driver TEXT, o_task_ref TEXT, o_nudges BIGINT,
               o_version BIGINT, o_expires_at_ms BIGINT, o_envelope TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_now BIGINT;
  v_row ratchet_schedule%ROWTYPE;
  v_version BIGINT;
  v_expires BIGINT;
BEGIN
  IF p_owner IS NULL OR p_ttl_ms IS NULL OR p_ttl_ms <= 0
     OR p_token_hash IS NULL OR p_token_hash !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'ratchet_claim_next: invalid arguments' USING ERRCODE = '22023';
  END IF;
  v_now := ratchet_now_ms();
  SELECT s.* INTO v_row FROM ratchet_leases l JOIN ratchet_schedule s ON s.run_id = l.run_id
   WHERE l.held = 1 AND l.expires_at_ms <= v_now
     AND (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= v_now))
   ORDER BY l.expires_at_ms, s.task_id, s.run_id
   LIMIT 1 FOR UPDATE OF s SKIP LOCKED;
  IF NOT FOUND THEN
    SELECT s.* INTO v_row FROM ratchet_schedule s
     WHERE (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= v_now))
       AND NOT EXISTS (SELECT 1 FROM ratchet_leases l
                        WHERE l.run_id = s.run_id AND l.held = 1 AND l.expires_at_ms > v_now)
     ORDER BY s.updated_at_ms, s.task_id, s.run_id
     LIMIT 1 FOR UPDATE OF s SKIP LOCKED;
    IF NOT FOUND THEN
      RETURN;
    END IF;
  END IF;
  SELECT g.o_version, g.o_expires_at_ms INTO v_version, v_expires
    FROM ratchet_grant(v_row.run_id, p_owner, p_ttl_ms, TRUE, p_token_hash) g;
  IF v_version IS NULL THEN
    RETURN;
  END IF;
  UPDATE ratchet_schedule s SET state = 'runnable', updated_at_ms = v_now
   WHERE s.task_id = v_row.task_id AND s.run_id = v_row.run_id;
  RETURN QUERY SELECT v_row.task_id, v_row.run_id, v_row.driver, v_row.task_ref, v_row.nudges,
                      v_version, v_expires,
                      (SELECT u.envelope FROM ratchet_submissions u
                        WHERE u.task_id = v_row.task_id AND u.run_id = v_row.run_id);
END $$;

-- Ends a claimed run's row and releases its lease, under the lease and token, in one call:
-- ratchet_finish then ratchet_release (which refuse or ignore exactly as they do alone).
CREATE FUNCTION ratchet_finish_release(
  p_task TEXT, p_run TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  v_rows := ratchet_finish(p_task, p_run, p_owner, p_lease_version, p_token);
  PERFORM ratchet_release(p_run, p_owner, p_lease_version, p_token);
  RETURN v_rows;
END $$;

REVOKE ALL ON FUNCTION ratchet_claim_next(text, bigint, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_finish_release(text, text, text, bigint, bytea) FROM PUBLIC;
