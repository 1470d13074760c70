-- PostgreSQL schema, version 5 (issue 16, ADR 0043): a commit in one call. ratchet_commit does what
-- ratchet_advance, ratchet_append (once per record), ratchet_put_content and ratchet_prune_content
-- did in one transaction, so a store commit is one statement and one round trip: the token, fence,
-- instance and compare-and-set checks (through ratchet_advance, unchanged), then each record, whose
-- chain link it recomputes from the stored head (sequence, previous head, the body's SHA-256), then
-- the content (which must hash to its digest) and the pruning of what retention no longer keeps.
-- A refused compare-and-set writes nothing (o_rows = 0); a record that does not continue its chain
-- or repeats a key raises RT422 and the whole call rolls back. The link text is the canonical JSON
-- of RecordChain ({"body_sha256","key","previous","sequence","set"}, sorted, compact); the caller
-- passes each key's canonical JSON string, which must decode to the key. The version-2 functions
-- stay (split stores and group-commit batches of older code use them).
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_commit (compare-and-set, records, content and pruning in one call)

CREATE FUNCTION ratchet_commit(
  p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT, p_digest TEXT, p_body TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA, p_retain_older INTEGER,
  p_sets TEXT[], p_sequences BIGINT[], p_keys TEXT[], p_key_json TEXT[], p_bodies TEXT[],
  p_chains TEXT[],
  OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_n INTEGER := COALESCE(cardinality(p_sets), 0);
  v_count BIGINT;
  v_prev TEXT;
  v_link TEXT;
BEGIN
  IF p_body IS NULL OR p_digest IS NULL
     OR encode(sha256(convert_to(p_body, 'UTF8')), 'hex') <> p_digest THEN
    RAISE EXCEPTION 'ratchet_commit: body does not hash to its digest' USING ERRCODE = '22023';
  END IF;
  IF COALESCE(cardinality(p_sequences), 0) <> v_n OR COALESCE(cardinality(p_keys), 0) <> v_n
     OR COALESCE(cardinality(p_key_json), 0) <> v_n OR COALESCE(cardinality(p_bodies), 0) <> v_n
     OR COALESCE(cardinality(p_chains), 0) <> v_n THEN
    RAISE EXCEPTION 'ratchet_commit: record arrays differ in length' USING ERRCODE = '22023';
  END IF;
  SELECT a.o_rows, a.o_judged_at_ms INTO o_rows, o_judged_at_ms
    FROM ratchet_advance(p_task, p_run, p_instance, p_expected, p_digest,
                         p_owner, p_lease_version, p_token, p_retain_older) a;
  IF o_rows <> 1 THEN
    RETURN; -- refused: nothing was written; the caller explains why
  END IF;
  FOR i IN 1 .. v_n LOOP
    SELECT r.sequence, r.chain INTO v_count, v_prev FROM ratchet_records r
     WHERE r.task_id = p_task AND r.run_id = p_run AND r.set_name = p_sets[i]
     ORDER BY r.sequence DESC LIMIT 1;
    IF NOT FOUND THEN
      v_count := 0;
      v_prev := repeat('0', 64);
    END IF;
    IF EXISTS (SELECT 1 FROM ratchet_records r
                WHERE r.task_id = p_task AND r.run_id = p_run AND r.set_name = p_sets[i]
                  AND r.record_key = p_keys[i]) THEN
      RAISE EXCEPTION 'record % key ''%'' already exists', p_sets[i], p_keys[i]
        USING ERRCODE = 'RT422';
    END IF;
    v_link := '{"body_sha256":"' || encode(sha256(convert_to(p_bodies[i], 'UTF8')), 'hex')
           || '","key":' || p_key_json[i] || ',"previous":"' || v_prev
           || '","sequence":' || p_sequences[i] || ',"set":"' || p_sets[i] || '"}';
    IF p_sequences[i] IS DISTINCT FROM v_count + 1 OR p_keys[i] IS NULL OR p_key_json[i] IS NULL
       OR jsonb_typeof(p_key_json[i]::jsonb) IS DISTINCT FROM 'string'
       OR (p_key_json[i]::jsonb #>> '{}') IS DISTINCT FROM p_keys[i]
       OR encode(sha256(convert_to(v_link, 'UTF8')), 'hex') IS DISTINCT FROM p_chains[i] THEN
      RAISE EXCEPTION 'record %#% does not continue its chain (stored count %)',
        p_sets[i], p_sequences[i], v_count USING ERRCODE = 'RT422';
    END IF;
    INSERT INTO ratchet_records (task_id, run_id, set_name, sequence, record_key, body, chain)
    VALUES (p_task, p_run, p_sets[i], p_sequences[i], p_keys[i], p_bodies[i], p_chains[i]);
  END LOOP;
  INSERT INTO ratchet_checkpoints AS k (task_id, run_id, content_digest, generation, body)
  VALUES (p_task, p_run, p_digest, p_expected + 1, p_body)
  ON CONFLICT (task_id, run_id, content_digest) DO UPDATE
     SET generation = GREATEST(k.generation, excluded.generation);
  DELETE FROM ratchet_checkpoints k
   WHERE k.task_id = p_task AND k.run_id = p_run AND k.generation <= p_expected + 1
     AND NOT EXISTS (SELECT 1 FROM ratchet_generations g
                      WHERE g.task_id = p_task AND g.run_id = p_run
                        AND g.content_digest = k.content_digest);
END $$;

REVOKE ALL ON FUNCTION ratchet_commit(text, text, text, bigint, text, text, text, bigint, bytea, integer, text[], bigint[], text[], text[], text[], text[]) FROM PUBLIC;

-- Roles already granted the version-2 commit function (workers) may call the new one as well, so
-- a store migrated under running workers keeps committing without granting the roles again.
DO $$
DECLARE
  v_role TEXT;
BEGIN
  FOR v_role IN SELECT DISTINCT p.grantee FROM information_schema.routine_privileges p
                 WHERE p.specific_schema = current_schema() AND p.routine_name = 'ratchet_advance'
                   AND p.privilege_type = 'EXECUTE' AND p.grantee <> 'PUBLIC' LOOP
    EXECUTE format('GRANT EXECUTE ON FUNCTION ratchet_commit(text, text, text, bigint, text, text, '
                   'text, bigint, bytea, integer, text[], bigint[], text[], text[], text[], '
                   'text[]) TO %I', v_role);
  END LOOP;
END $$;
