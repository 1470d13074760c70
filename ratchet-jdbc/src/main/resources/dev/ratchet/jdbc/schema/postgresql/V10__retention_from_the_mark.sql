-- PostgreSQL schema, version 10 (issue 16): retention that never walks what it deleted before.
-- Version 8's ratchet_commit pruned with two open-ended ranges: the generation log below the
-- retained window and every content row of the run the log no longer names. A deleted row stays
-- in its table and in the index until a vacuum removes it, so both deletes walked every
-- generation the run had ever pruned: the commit's cost grew with the run's history (2x slower
-- after a minute of 8 runs on a server without autovacuum; flat again with a VACUUM every few
-- seconds). The mark now records retained_from, the lowest generation the log may still hold;
-- each commit deletes the log rows in [retained_from, g - retainOlder) (one row in steady state),
-- moves retained_from up, and deletes by digest the content those rows named unless a retained
-- generation still names it. Every statement is an index lookup or a range over live rows. What is
-- retained is unchanged: the current generation and exactly retainOlder older ones. Existing
-- marks start at 0, so their first commit sweeps the old range once. Content no log row ever named
-- (none in a single-database store since version 5) is no longer swept. The signature, and so
-- every grant of it, is version 5's; the checks and refusals are version 8's.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: retention prunes from the mark's retained_from, content by digest

ALTER TABLE ratchet_marks ADD COLUMN retained_from BIGINT NOT NULL DEFAULT 0;

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
  v_floor BIGINT;
  v_from BIGINT := 0;
  v_gone TEXT;
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
  INSERT INTO ratchet_generations AS g (task_id, run_id, generation, content_digest)
  VALUES (p_task, p_run, v_next, p_digest)
  ON CONFLICT (task_id, run_id, generation) DO UPDATE SET content_digest = excluded.content_digest;
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
  IF v_from < v_floor THEN
    -- The generations that leave retention with this commit, from the mark's retained_from (rows
    -- below it were deleted before and may still sit in the table and index), and by digest the
    -- content each named unless a retained generation names it too. One statement per digest, with
    -- every key column equal, so no plan can walk the run's other (possibly dead) content rows.
    -- Steady state (the same N as the last commit) is one generation: no loop to open.
    IF v_floor - v_from = 1 THEN
      DELETE FROM ratchet_generations g
       WHERE g.task_id = p_task AND g.run_id = p_run AND g.generation = v_from
      RETURNING g.content_digest INTO v_gone;
      IF FOUND THEN
        DELETE FROM ratchet_checkpoints k
         WHERE k.task_id = p_task AND k.run_id = p_run AND k.content_digest = v_gone
           AND NOT EXISTS (SELECT 1 FROM ratchet_generations r
                            WHERE r.task_id = p_task AND r.run_id = p_run
                              AND r.generation >= v_floor AND r.content_digest = v_gone);
      END IF;
    ELSE
      FOR v_gone IN
        DELETE FROM ratchet_generations g
         WHERE g.task_id = p_task AND g.run_id = p_run
           AND g.generation >= v_from AND g.generation < v_floor
        RETURNING g.content_digest
      LOOP
        DELETE FROM ratchet_checkpoints k
         WHERE k.task_id = p_task AND k.run_id = p_run AND k.content_digest = v_gone
           AND NOT EXISTS (SELECT 1 FROM ratchet_generations r
                            WHERE r.task_id = p_task AND r.run_id = p_run
                              AND r.generation >= v_floor AND r.content_digest = v_gone);
      END LOOP;
    END IF;
  END IF;
END $$;
