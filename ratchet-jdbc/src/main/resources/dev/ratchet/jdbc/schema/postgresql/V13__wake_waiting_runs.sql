-- PostgreSQL schema, version 13 (issue 39, ADR 0053): ratchet_wake_waiting makes every waiting
-- scheduling row runnable again, for a change no inbox item announces: a trust root that now
-- trusts the signer of a decision a run refused. Every row not ended counts a nudge, so a worker
-- that judged a run under the old trust root cannot park it over the wake (ratchet_park compares
-- nudges). Ended rows stay ended. Listening workers are told through ratchet_runnable. The row
-- stays a hint: a woken run with nothing new parks again after one claim. Granted to the operator
-- (after 'keys trust') and to the worker (after it reloads a changed trust root).
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_wake_waiting (waiting runs re-evaluated after a trust change)

CREATE FUNCTION ratchet_wake_waiting()
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  UPDATE ratchet_schedule s SET nudges = s.nudges + 1 WHERE s.state = 'runnable';
  UPDATE ratchet_schedule s SET state = 'runnable', nudges = s.nudges + 1
   WHERE s.state = 'waiting';
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  PERFORM pg_notify('ratchet_runnable', json_build_object('woken', v_rows)::text);
  RETURN v_rows;
END $$;

REVOKE ALL ON FUNCTION ratchet_wake_waiting() FROM PUBLIC;
