-- PostgreSQL schema, version 18 (issue 39, ADR 0066): why a run was ended or parked at claim is
-- on its scheduling row, not only in a worker's log. reason is the worker's words (what happened
-- and what to do next), reason_at_ms when it was written; both NULL for a row nothing refused.
-- A worker writes them only through ratchet_park_with_reason and ratchet_finish_with_reason (the
-- version-4 park and finish under the run's lease and token, plus the reason); a claim clears
-- them (ratchet_claim_next, replaced here with that one change), so a row a worker holds or a run
-- it later parks for an ordinary reason never shows an old refusal. (Version 4's ratchet_claim,
-- which Ratchet no longer calls, is left as it was and does not clear them.)
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: scheduling rows say why a worker ended or parked them (reason, reason_at_ms)

ALTER TABLE ratchet_schedule ADD COLUMN reason TEXT, ADD COLUMN reason_at_ms BIGINT;

-- As ratchet_park, and the row keeps p_reason (1 to 4096 characters) with the time it was set.
CREATE FUNCTION ratchet_park_with_reason(
  p_task TEXT, p_run TEXT, p_seen_nudges BIGINT, p_wake_at_ms BIGINT, p_reason TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  IF p_reason IS NULL OR length(p_reason) = 0 OR length(p_reason) > 4096 THEN
    RAISE EXCEPTION 'ratchet_park_with_reason: reason must be 1 to 4096 characters'
      USING ERRCODE = '22023';
  END IF;
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_park: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  UPDATE ratchet_schedule s SET state = 'waiting', wake_at_ms = p_wake_at_ms,
         updated_at_ms = ratchet_now_ms(), reason = p_reason, reason_at_ms = ratchet_now_ms()
   WHERE s.task_id = p_task AND s.run_id = p_run AND s.state = 'runnable'
     AND s.nudges = p_seen_nudges;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- As ratchet_finish, and the row keeps p_reason (1 to 4096 characters) with the time it was set.
CREATE FUNCTION ratchet_finish_with_reason(
  p_task TEXT, p_run TEXT, p_reason TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  IF p_reason IS NULL OR length(p_reason) = 0 OR length(p_reason) > 4096 THEN
    RAISE EXCEPTION 'ratchet_finish_with_reason: reason must be 1 to 4096 characters'
      USING ERRCODE = '22023';
  END IF;
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_finish: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  UPDATE ratchet_schedule s SET state = 'ended', wake_at_ms = NULL,
         updated_at_ms = ratchet_now_ms(), reason = p_reason, reason_at_ms = ratchet_now_ms()
   WHERE s.task_id = p_task AND s.run_id = p_run;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- As in version 15, and the claimed row's reason is cleared.
CREATE OR REPLACE FUNCTION ratchet_claim_next(p_owner TEXT, p_ttl_ms BIGINT, p_token_hash TEXT)
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
  UPDATE ratchet_schedule s SET state = 'runnable', updated_at_ms = v_now,
         reason = NULL, reason_at_ms = NULL
   WHERE s.task_id = v_row.task_id AND s.run_id = v_row.run_id;
  RETURN QUERY SELECT v_row.task_id, v_row.run_id, v_row.driver, v_row.task_ref, v_row.nudges,
                      v_version, v_expires,
                      (SELECT u.envelope FROM ratchet_submissions u
                        WHERE u.task_id = v_row.task_id AND u.run_id = v_row.run_id);
END $$;

REVOKE ALL ON FUNCTION ratchet_park_with_reason(text, text, bigint, bigint, text, text, bigint, bytea)
  FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_finish_with_reason(text, text, text, text, bigint, bytea)
  FROM PUBLIC;
