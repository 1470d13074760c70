-- ADR 0142's candidate, for figure 7 only (Harness --beside slots): not a migration, never
-- installed by a store. Version 19's ratchet_commit with its generation row, content row and
-- retention's deletes replaced by one upsert of the run's slot generation mod (N + 1), so each
-- run keeps its checkpoint and exactly N older ones, rewritten in place. PreviousCommit creates
-- the table and the function in figure 7's second schema ({schema}).

CREATE TABLE {schema}.ratchet_slots (
  task_id TEXT NOT NULL, run_id TEXT NOT NULL, slot INTEGER NOT NULL, generation BIGINT NOT NULL,
  content_digest TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (task_id, run_id, slot));

CREATE OR REPLACE FUNCTION ratchet_commit(
  p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT, p_digest TEXT, p_body TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA, p_retain_older INTEGER,
  p_sets TEXT[], p_sequences BIGINT[], p_keys TEXT[], p_key_json TEXT[], p_bodies TEXT[],
  p_chains TEXT[],
  OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_n INTEGER := COALESCE(cardinality(p_sets), 0);
  v_next BIGINT;
  v_token_hash TEXT;
  v_floor BIGINT;
  v_from BIGINT := 0;
  v_gone TEXT;
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_instance IS NULL OR p_digest IS NULL
     OR p_body IS NULL OR p_owner IS NULL OR p_lease_version IS NULL OR p_token IS NULL
     OR p_expected IS NULL OR p_expected < 0 OR p_retain_older IS NULL
     OR p_retain_older < 0 THEN
    RAISE EXCEPTION 'ratchet_commit: invalid arguments' USING ERRCODE = '22023';
  END IF;
  IF COALESCE(cardinality(p_sequences), 0) <> v_n OR COALESCE(cardinality(p_keys), 0) <> v_n
     OR COALESCE(cardinality(p_key_json), 0) <> v_n OR COALESCE(cardinality(p_bodies), 0) <> v_n
     OR COALESCE(cardinality(p_chains), 0) <> v_n THEN
    RAISE EXCEPTION 'ratchet_commit: record arrays differ in length' USING ERRCODE = '22023';
  END IF;
  o_judged_at_ms := ratchet_now_ms(); -- the database clock, one function so tests can move it
  v_next := p_expected + 1;
  v_floor := v_next - p_retain_older; -- the oldest generation retention keeps after this commit
  v_token_hash := encode(sha256(p_token), 'hex');
  -- The compare-and-set, under the live lease whose token this is (ratchet_holds' conditions).
  IF p_expected = 0 THEN
    INSERT INTO ratchet_marks
      (task_id, run_id, generation, content_digest, environment_instance_id)
    SELECT p_task, p_run, 1, p_digest, p_instance
     WHERE EXISTS (SELECT 1 FROM ratchet_leases l
                    WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_lease_version
                      AND l.held = 1 AND l.expires_at_ms > o_judged_at_ms
                      AND l.token_hash = v_token_hash)
    ON CONFLICT (task_id, run_id) DO NOTHING;
  ELSE
    -- o is the row as it was: the compare-and-set wins only if no commit changed it since.
    UPDATE ratchet_marks m SET generation = v_next, content_digest = p_digest,
           retained_from = GREATEST(o.retained_from, v_floor)
      FROM ratchet_marks o
     WHERE m.task_id = p_task AND m.run_id = p_run AND m.generation = p_expected
       AND m.environment_instance_id = p_instance
       AND o.task_id = m.task_id AND o.run_id = m.run_id
       AND EXISTS (SELECT 1 FROM ratchet_leases l
                    WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_lease_version
                      AND l.held = 1 AND l.expires_at_ms > o_judged_at_ms
                      AND l.token_hash = v_token_hash)
    RETURNING o.retained_from INTO v_from;
  END IF;
  GET DIAGNOSTICS o_rows = ROW_COUNT;
  IF o_rows <> 1 THEN
    RETURN; -- refused: nothing was written; the caller explains why
  END IF;
  -- Records as the writer linked them; the primary key refuses a repeated sequence and
  -- ratchet_records_by_key a repeated key (23505: the whole call rolls back).
  FOR i IN 1 .. v_n LOOP
    INSERT INTO ratchet_records (task_id, run_id, set_name, sequence, record_key, body, chain)
    VALUES (p_task, p_run, p_sets[i], p_sequences[i], p_keys[i], p_bodies[i], p_chains[i]);
  END LOOP;
  INSERT INTO ratchet_slots AS k (task_id, run_id, slot, generation, content_digest, body)
  VALUES (p_task, p_run, v_next % (p_retain_older + 1), v_next, p_digest, p_body)
  ON CONFLICT (task_id, run_id, slot) DO UPDATE SET generation = excluded.generation,
     content_digest = excluded.content_digest, body = excluded.body;
END $$;
