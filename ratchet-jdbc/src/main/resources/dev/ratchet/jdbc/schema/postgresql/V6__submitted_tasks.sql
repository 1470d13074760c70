-- PostgreSQL schema, version 6 (SPEC D19, D24; ADR 0061): tasks submitted by operators. A submitted
-- task is an Ed25519-signed envelope (the operator's key) holding the whole task file, bound to its
-- run id; it waits here for a worker, which verifies the signature against its operator trust root
-- before the run's first commit. An operator writes it only through ratchet_submit, which stores
-- the envelope and schedules the run (ratchet_schedule, which notifies ratchet_runnable) in one
-- transaction. The store checks the shape only; the signature is the worker's to check.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: submitted tasks; ratchet_submit

CREATE TABLE ratchet_submissions (
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  driver TEXT NOT NULL,
  envelope TEXT NOT NULL,
  submitted_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, run_id));

-- An operator's submit (D21, D24): a new run id (no submission, run or scheduling row under it), a
-- JSON object envelope of at most 1 MiB; stores it and schedules the run under p_driver.
CREATE FUNCTION ratchet_submit(p_task TEXT, p_run TEXT, p_driver TEXT, p_envelope TEXT)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_run !~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'
     OR p_envelope IS NULL OR octet_length(p_envelope) > 1048576 THEN
    RAISE EXCEPTION 'ratchet_submit: not a submitted task (task, run or envelope)'
      USING ERRCODE = '22023';
  END IF;
  BEGIN
    IF jsonb_typeof(p_envelope::jsonb) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION 'ratchet_submit: envelope is not a JSON object' USING ERRCODE = '22023';
    END IF;
  EXCEPTION WHEN invalid_text_representation THEN
    RAISE EXCEPTION 'ratchet_submit: envelope is not JSON' USING ERRCODE = '22023';
  END;
  IF EXISTS (SELECT 1 FROM ratchet_marks WHERE run_id = p_run)
     OR EXISTS (SELECT 1 FROM ratchet_submissions WHERE run_id = p_run)
     OR EXISTS (SELECT 1 FROM ratchet_schedule WHERE run_id = p_run) THEN
    RAISE EXCEPTION 'run ''%'' already exists', p_run USING ERRCODE = 'RT409';
  END IF;
  INSERT INTO ratchet_submissions (task_id, run_id, driver, envelope, submitted_at_ms)
  VALUES (p_task, p_run, p_driver, p_envelope, ratchet_now_ms());
  PERFORM ratchet_schedule(p_task, p_run, p_driver, 'submitted');
END $$;

REVOKE ALL ON FUNCTION ratchet_submit(text, text, text, text) FROM PUBLIC;
