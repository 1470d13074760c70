-- PostgreSQL schema, version 14 (issue 42, SPEC D37): an operator's signed pause, unpause and task migration are inbox kinds. ratchet_deliver
-- is replaced with every check of version 3 kept (run exists, nonce length, JSON object envelope of
-- at most 1 MiB, nonce new to the run, notify) and PAUSE, UNPAUSE and MIGRATE added to the kinds it
-- accepts. CREATE OR REPLACE keeps its owner, SECURITY DEFINER and the operator role's EXECUTE
-- grant; PUBLIC stays revoked. Released: never edit this file; add the next version instead.
-- Statements end with ';' at the end of a line outside $$ bodies.
-- description: ratchet_deliver accepts PAUSE, UNPAUSE and MIGRATE inbox items

-- An operator's delivery (D12, D21): the run must exist, the item must have the shape of an inbox
-- item (a nonce of 1 to 200 characters, a known kind, a JSON object envelope of at most 1 MiB), and
-- the nonce must be new to the run (neither delivered nor consumed). Inserts at the next position
-- and notifies the channel ratchet_inbox with the run's JSON address.
CREATE OR REPLACE FUNCTION ratchet_deliver(
  p_task TEXT, p_run TEXT, p_nonce TEXT, p_kind TEXT, p_envelope TEXT)
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_position BIGINT;
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_nonce IS NULL OR length(p_nonce) = 0
     OR length(p_nonce) > 200 OR p_kind IS NULL
     OR p_kind NOT IN ('APPROVAL', 'REVIEW_DECISION', 'CANCEL', 'PAUSE', 'UNPAUSE', 'MIGRATE')
     OR p_envelope IS NULL OR octet_length(p_envelope) > 1048576 THEN
    RAISE EXCEPTION 'ratchet_deliver: not an inbox item (nonce, kind or envelope)'
      USING ERRCODE = '22023';
  END IF;
  BEGIN
    IF jsonb_typeof(p_envelope::jsonb) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION 'ratchet_deliver: envelope is not a JSON object' USING ERRCODE = '22023';
    END IF;
  EXCEPTION WHEN invalid_text_representation THEN
    RAISE EXCEPTION 'ratchet_deliver: envelope is not JSON' USING ERRCODE = '22023';
  END;
  PERFORM pg_advisory_xact_lock(hashtext(current_schema() || ':inbox:' || length(p_task)
                                         || ':' || p_task || p_run));
  IF NOT EXISTS (SELECT 1 FROM ratchet_marks WHERE task_id = p_task AND run_id = p_run) THEN
    RAISE EXCEPTION 'run ''%'' of task ''%'' does not exist', p_run, p_task
      USING ERRCODE = 'RT404';
  END IF;
  IF EXISTS (SELECT 1 FROM ratchet_inbox
              WHERE task_id = p_task AND run_id = p_run AND nonce = p_nonce)
     OR EXISTS (SELECT 1 FROM ratchet_records
                 WHERE task_id = p_task AND run_id = p_run AND set_name = 'nonces'
                   AND record_key = p_nonce) THEN
    RAISE EXCEPTION 'nonce ''%'' was already delivered to this run', p_nonce
      USING ERRCODE = 'RT409';
  END IF;
  SELECT COALESCE(MAX(position), 0) + 1 INTO v_position
    FROM ratchet_inbox WHERE task_id = p_task AND run_id = p_run;
  INSERT INTO ratchet_inbox (task_id, run_id, nonce, position, kind, envelope)
  VALUES (p_task, p_run, p_nonce, v_position, p_kind, p_envelope);
  PERFORM pg_notify('ratchet_inbox', json_build_object('task', p_task, 'run', p_run)::text);
  RETURN v_position;
END $$;

REVOKE ALL ON FUNCTION ratchet_deliver(text, text, text, text, text) FROM PUBLIC;
