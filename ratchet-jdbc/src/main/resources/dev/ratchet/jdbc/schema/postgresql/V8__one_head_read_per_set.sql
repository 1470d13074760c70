-- PostgreSQL schema, version 8 (issue 16): ratchet_commit as in version 7, with two changes found
-- by measuring version 7 in the server alone. Each set's stored head is read when the call reaches
-- the first record of that set (one indexed SELECT ... ORDER BY sequence DESC LIMIT 1), instead of
-- all heads at once through a LATERAL join over the distinct set names, which planned and ran
-- slower under plpgsql's plan cache; and a key's JSON is checked by comparing it with
-- to_json(key) instead of parsing it as jsonb. Checks, writes and refusals are version 7's: a
-- refused compare-and-set writes nothing (o_rows = 0); bad arguments or content raise 22023; a
-- record that does not continue its chain raises RT422 and a repeated key 23505 (the unique index),
-- and the whole call rolls back. The signature, and so every grant of it, is version 5's.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_commit reads each set head once, compares key JSON with to_json

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
  v_names TEXT[] := '{}';
  v_counts BIGINT[] := '{}';
  v_heads TEXT[] := '{}';
  v_at INTEGER;
  v_count BIGINT;
  v_prev TEXT;
  v_link TEXT;
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_instance IS NULL OR p_digest IS NULL
     OR p_owner IS NULL OR p_lease_version IS NULL OR p_token IS NULL OR p_expected IS NULL
     OR p_expected < 0 OR p_retain_older IS NULL OR p_retain_older < 0 THEN
    RAISE EXCEPTION 'ratchet_commit: invalid arguments' USING ERRCODE = '22023';
  END IF;
  IF p_body IS NULL OR encode(sha256(convert_to(p_body, 'UTF8')), 'hex') <> p_digest THEN
    RAISE EXCEPTION 'ratchet_commit: body does not hash to its digest' USING ERRCODE = '22023';
  END IF;
  IF COALESCE(cardinality(p_sequences), 0) <> v_n OR COALESCE(cardinality(p_keys), 0) <> v_n
     OR COALESCE(cardinality(p_key_json), 0) <> v_n OR COALESCE(cardinality(p_bodies), 0) <> v_n
     OR COALESCE(cardinality(p_chains), 0) <> v_n THEN
    RAISE EXCEPTION 'ratchet_commit: record arrays differ in length' USING ERRCODE = '22023';
  END IF;
  o_judged_at_ms := ratchet_now_ms(); -- the database clock, one function so tests can move it
  v_next := p_expected + 1;
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
    UPDATE ratchet_marks m SET generation = v_next, content_digest = p_digest
     WHERE m.task_id = p_task AND m.run_id = p_run AND m.generation = p_expected
       AND m.environment_instance_id = p_instance
       AND EXISTS (SELECT 1 FROM ratchet_leases l
                    WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_lease_version
                      AND l.held = 1 AND l.expires_at_ms > o_judged_at_ms
                      AND l.token_hash = v_token_hash);
  END IF;
  GET DIAGNOSTICS o_rows = ROW_COUNT;
  IF o_rows <> 1 THEN
    RETURN; -- refused: nothing was written; the caller explains why
  END IF;
  INSERT INTO ratchet_generations AS g (task_id, run_id, generation, content_digest)
  VALUES (p_task, p_run, v_next, p_digest)
  ON CONFLICT (task_id, run_id, generation) DO UPDATE SET content_digest = excluded.content_digest;
  DELETE FROM ratchet_generations g
   WHERE g.task_id = p_task AND g.run_id = p_run AND g.generation < v_next - p_retain_older;
  IF v_n > 0 THEN
    -- No lookup of each key first: the unique index ratchet_records_by_key refuses a repeated
    -- key on insert (23505), and a planner that picked the primary key for that lookup would walk
    -- the whole set.
    FOR i IN 1 .. v_n LOOP
      v_at := array_position(v_names, p_sets[i]);
      IF v_at IS NULL THEN -- the first record of its set in this call: read the stored head once
        SELECT r.sequence, r.chain INTO v_count, v_prev FROM ratchet_records r
         WHERE r.task_id = p_task AND r.run_id = p_run AND r.set_name = p_sets[i]
         ORDER BY r.sequence DESC LIMIT 1;
        IF NOT FOUND THEN
          v_count := 0;
          v_prev := repeat('0', 64);
        END IF;
        v_names := v_names || p_sets[i];
        v_counts := v_counts || v_count;
        v_heads := v_heads || v_prev;
        v_at := cardinality(v_names);
      END IF;
      v_link := '{"body_sha256":"' || encode(sha256(convert_to(p_bodies[i], 'UTF8')), 'hex')
             || '","key":' || p_key_json[i] || ',"previous":"' || v_heads[v_at]
             || '","sequence":' || p_sequences[i] || ',"set":"' || p_sets[i] || '"}';
      IF p_sequences[i] IS DISTINCT FROM v_counts[v_at] + 1 OR p_keys[i] IS NULL
         OR p_key_json[i] IS DISTINCT FROM to_json(p_keys[i])::text
         OR encode(sha256(convert_to(v_link, 'UTF8')), 'hex') IS DISTINCT FROM p_chains[i] THEN
        RAISE EXCEPTION 'record %#% does not continue its chain (stored count %)',
          p_sets[i], p_sequences[i], v_counts[v_at] USING ERRCODE = 'RT422';
      END IF;
      v_counts[v_at] := p_sequences[i];
      v_heads[v_at] := p_chains[i];
      INSERT INTO ratchet_records (task_id, run_id, set_name, sequence, record_key, body, chain)
      VALUES (p_task, p_run, p_sets[i], p_sequences[i], p_keys[i], p_bodies[i], p_chains[i]);
    END LOOP;
  END IF;
  INSERT INTO ratchet_checkpoints AS k (task_id, run_id, content_digest, generation, body)
  VALUES (p_task, p_run, p_digest, v_next, p_body)
  ON CONFLICT (task_id, run_id, content_digest) DO UPDATE
     SET generation = GREATEST(k.generation, excluded.generation);
  DELETE FROM ratchet_checkpoints k
   WHERE k.task_id = p_task AND k.run_id = p_run AND k.generation <= v_next
     AND NOT EXISTS (SELECT 1 FROM ratchet_generations g
                      WHERE g.task_id = p_task AND g.run_id = p_run
                        AND g.content_digest = k.content_digest);
END $$;
