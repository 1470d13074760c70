-- PostgreSQL schema, version 20 (issue 39, ADR 0066): an operator's 'ratchet resume' takes the
-- run's lease without a claim, so the reason a worker left on the row ("parked at claim: ...;
-- 'ratchet resume RUN' drives it by hand") stayed after the operator did exactly that. The
-- resume's holder now claims the row under the lease it holds: ratchet_claim_held does to the row
-- what ratchet_claim_next does to the row it picks (runnable, touched, reason cleared) and returns
-- the driver, task reference and inbox count seen, so the caller then parks or finishes it with
-- ratchet_park / ratchet_finish as a worker would. A row that ended, or no row, is left alone and
-- no row is returned. Granted to the worker role (resume runs as the worker).
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_claim_held: a resume's lease holder claims its run's scheduling row

CREATE FUNCTION ratchet_claim_held(
  p_task TEXT, p_run TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS TABLE (o_driver TEXT, o_task_ref TEXT, o_nudges BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_claim_held: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  RETURN QUERY
  WITH u AS (
    UPDATE ratchet_schedule s SET state = 'runnable', updated_at_ms = ratchet_now_ms(),
           reason = NULL, reason_at_ms = NULL
     WHERE s.task_id = p_task AND s.run_id = p_run AND s.state <> 'ended'
    RETURNING s.driver, s.task_ref, s.nudges)
  SELECT u.driver, u.task_ref, u.nudges FROM u;
END $$;

REVOKE ALL ON FUNCTION ratchet_claim_held(text, text, text, bigint, bytea) FROM PUBLIC;
