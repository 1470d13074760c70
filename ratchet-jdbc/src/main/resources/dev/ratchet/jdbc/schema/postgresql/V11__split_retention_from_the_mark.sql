-- PostgreSQL schema, version 11 (issue 16): a split store's commit no longer walks its run's pruned
-- log either. Version 10 bounded the single-database commit (ratchet_commit) by the mark's
-- retained_from; a split store (content in another database, D7) still called version 2's
-- ratchet_advance, which deleted the log with an open-ended range (generation < g - retainOlder).
-- A row PostgreSQL deletes stays in the table and its index until no snapshot can see it and a
-- vacuum removes it, so under concurrency that delete read every generation the run had pruned
-- before: the commit's cost grew with the run's history (D6). ratchet_advance now moves
-- retained_from in its compare-and-set, as ratchet_commit does, and deletes only the log rows in
-- [retained_from, g - retainOlder) (one in steady state). What is retained is unchanged: the
-- current generation and exactly retainOlder older ones. The signature, and so every grant of it,
-- and the lease check (ratchet_holds) are version 2's.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: a split store's compare-and-set prunes its log from the mark's retained_from

CREATE OR REPLACE FUNCTION ratchet_advance(
  p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT, p_digest TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA, p_retain_older INTEGER,
  OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_floor BIGINT;
  v_from BIGINT := 0;
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_instance IS NULL OR p_digest IS NULL
     OR p_owner IS NULL OR p_lease_version IS NULL OR p_token IS NULL OR p_expected IS NULL
     OR p_expected < 0 OR p_retain_older IS NULL OR p_retain_older < 0 THEN
    RAISE EXCEPTION 'ratchet_advance: invalid arguments' USING ERRCODE = '22023';
  END IF;
  o_judged_at_ms := ratchet_now_ms();
  v_floor := p_expected + 1 - p_retain_older; -- the oldest generation kept after this commit
  IF p_expected = 0 THEN
    INSERT INTO ratchet_marks
      (task_id, run_id, generation, content_digest, environment_instance_id)
    SELECT p_task, p_run, 1, p_digest, p_instance
     WHERE ratchet_holds(p_run, p_owner, p_lease_version, p_token, o_judged_at_ms)
    ON CONFLICT (task_id, run_id) DO NOTHING;
  ELSE
    -- o is the row as it was: the compare-and-set wins only if no commit changed it since.
    UPDATE ratchet_marks m SET generation = p_expected + 1, content_digest = p_digest,
           retained_from = GREATEST(o.retained_from, v_floor)
      FROM ratchet_marks o
     WHERE m.task_id = p_task AND m.run_id = p_run AND m.generation = p_expected
       AND m.environment_instance_id = p_instance
       AND o.task_id = m.task_id AND o.run_id = m.run_id
       AND ratchet_holds(p_run, p_owner, p_lease_version, p_token, o_judged_at_ms)
    RETURNING o.retained_from INTO v_from;
  END IF;
  GET DIAGNOSTICS o_rows = ROW_COUNT;
  IF o_rows = 1 THEN
    INSERT INTO ratchet_generations AS g
      (task_id, run_id, generation, content_digest)
    VALUES (p_task, p_run, p_expected + 1, p_digest)
    ON CONFLICT (task_id, run_id, generation)
    DO UPDATE SET content_digest = excluded.content_digest;
    IF v_from < v_floor THEN
      -- Rows below retained_from were deleted before and may still sit in the table and index.
      DELETE FROM ratchet_generations g
       WHERE g.task_id = p_task AND g.run_id = p_run
         AND g.generation >= v_from AND g.generation < v_floor;
    END IF;
  END IF;
END $$;
