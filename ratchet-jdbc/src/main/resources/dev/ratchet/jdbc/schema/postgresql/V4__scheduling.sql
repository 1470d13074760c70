-- PostgreSQL schema, version 4 (SPEC D24, ADR 0060): a scheduling row per run for workers. The row
-- is a hint only (the signed checkpoint decides what the run does next): runnable (a worker may
-- claim it once its lease is free or lapsed), waiting (for an inbox item, or until wake_at_ms) or
-- ended. nudges counts the inbox items delivered since the row was made, so a worker that decided
-- to wait before an item arrived cannot put the run back to sleep over it. A worker writes the rows
-- only through the functions below: ratchet_claim picks a claimable run with FOR UPDATE SKIP LOCKED
-- and grants its lease to the caller's token (D21); ratchet_park and ratchet_finish change the row
-- under the run's lease and token. An operator enqueues with ratchet_schedule. An inbox insert (by
-- ratchet_deliver, unchanged here) wakes the run through a trigger and notifies ratchet_runnable.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: scheduling rows; ratchet_schedule, ratchet_claim, ratchet_park, ratchet_finish; inbox wakes

CREATE TABLE ratchet_schedule (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  driver TEXT NOT NULL,
  task_ref TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('runnable', 'waiting', 'ended')),
  wake_at_ms BIGINT,
  nudges BIGINT NOT NULL DEFAULT 0,
  updated_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, run_id));

CREATE INDEX ratchet_schedule_by_state ON ratchet_schedule (state, updated_at_ms);

-- Enqueues a new run for workers (an operator's submit); a run already scheduled is refused.
CREATE FUNCTION ratchet_schedule(p_task TEXT, p_run TEXT, p_driver TEXT, p_task_ref TEXT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_driver IS NULL OR p_driver !~ '^[a-z][a-z0-9_-]{0,63}$'
     OR p_task_ref IS NULL OR length(p_task_ref) = 0 OR length(p_task_ref) > 4096 THEN
    RAISE EXCEPTION 'ratchet_schedule: invalid arguments (task, run, driver or task_ref)'
      USING ERRCODE = '22023';
  END IF;
  INSERT INTO ratchet_schedule (task_id, run_id, driver, task_ref, state, updated_at_ms)
  VALUES (p_task, p_run, p_driver, p_task_ref, 'runnable', ratchet_now_ms());
  PERFORM pg_notify('ratchet_runnable', json_build_object('task', p_task, 'run', p_run)::text);
END $$;

-- Claims one run: runnable, or waiting with its wake-up reached, whose lease is free or lapsed;
-- the oldest-touched first, skipping rows another claim has locked. Grants the lease to p_owner
-- with the hash of the caller's token, marks the row runnable and touched, and returns it; no row
-- when nothing is claimable.
CREATE FUNCTION ratchet_claim(p_owner TEXT, p_ttl_ms BIGINT, p_token_hash TEXT)
RETURNS TABLE (o_task TEXT, o_run TEXT, o_driver TEXT, o_task_ref TEXT, o_nudges BIGINT,
               o_version BIGINT, o_expires_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_now BIGINT;
  v_row ratchet_schedule%ROWTYPE;
  v_version BIGINT;
  v_expires BIGINT;
BEGIN
  IF p_owner IS NULL OR p_ttl_ms IS NULL OR p_ttl_ms <= 0
     OR p_token_hash IS NULL OR p_token_hash !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'ratchet_claim: invalid arguments' USING ERRCODE = '22023';
  END IF;
  v_now := ratchet_now_ms();
  SELECT s.* INTO v_row FROM ratchet_schedule s
   WHERE (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= v_now))
     AND NOT EXISTS (SELECT 1 FROM ratchet_leases l
                      WHERE l.run_id = s.run_id AND l.held = 1 AND l.expires_at_ms > v_now)
   ORDER BY s.updated_at_ms, s.task_id, s.run_id
   LIMIT 1 FOR UPDATE OF s SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT g.o_version, g.o_expires_at_ms INTO v_version, v_expires
    FROM ratchet_grant(v_row.run_id, p_owner, p_ttl_ms, TRUE, p_token_hash) g;
  IF v_version IS NULL THEN
    RETURN;
  END IF;
  UPDATE ratchet_schedule s SET state = 'runnable', updated_at_ms = v_now
   WHERE s.task_id = v_row.task_id AND s.run_id = v_row.run_id;
  RETURN QUERY SELECT v_row.task_id, v_row.run_id, v_row.driver, v_row.task_ref, v_row.nudges,
                      v_version, v_expires;
END $$;

-- Parks a claimed run as waiting (until an inbox item, or p_wake_at_ms when not NULL), under its
-- lease and token, unless an item arrived since the claim (nudges moved on): then it stays
-- runnable. Returns the rows changed (1 parked, 0 not).
CREATE FUNCTION ratchet_park(
  p_task TEXT, p_run TEXT, p_seen_nudges BIGINT, p_wake_at_ms BIGINT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_park: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  UPDATE ratchet_schedule s SET state = 'waiting', wake_at_ms = p_wake_at_ms,
         updated_at_ms = ratchet_now_ms()
   WHERE s.task_id = p_task AND s.run_id = p_run AND s.state = 'runnable'
     AND s.nudges = p_seen_nudges;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- Marks a claimed run's row ended (its checkpoint is terminal), under its lease and token.
CREATE FUNCTION ratchet_finish(
  p_task TEXT, p_run TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_finish: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  UPDATE ratchet_schedule s SET state = 'ended', wake_at_ms = NULL,
         updated_at_ms = ratchet_now_ms()
   WHERE s.task_id = p_task AND s.run_id = p_run;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- An inbox item wakes its run's row (an ended row stays ended) and tells listening workers.
CREATE FUNCTION ratchet_inbox_wakes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  UPDATE ratchet_schedule s
     SET state = CASE WHEN s.state = 'ended' THEN 'ended' ELSE 'runnable' END,
         nudges = s.nudges + 1
   WHERE s.task_id = NEW.task_id AND s.run_id = NEW.run_id;
  PERFORM pg_notify('ratchet_runnable',
                    json_build_object('task', NEW.task_id, 'run', NEW.run_id)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER ratchet_inbox_wakes AFTER INSERT ON ratchet_inbox
  FOR EACH ROW EXECUTE FUNCTION ratchet_inbox_wakes();

REVOKE ALL ON FUNCTION ratchet_schedule(text, text, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_claim(text, bigint, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_park(text, text, bigint, bigint, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_finish(text, text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_inbox_wakes() FROM PUBLIC;
