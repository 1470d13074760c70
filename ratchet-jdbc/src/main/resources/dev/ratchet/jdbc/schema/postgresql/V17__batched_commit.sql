-- PostgreSQL schema, version 17 (issue 38 item 3(b), SPEC D34, ADR 0141): the commits of several
-- runs of one worker in one call. ratchet_commit_batch takes one array element per run (and the
-- runs' records concatenated, p_record_counts saying how many belong to each) and calls
-- ratchet_commit for each run inside its own subtransaction (a BEGIN ... EXCEPTION block), so a
-- run whose compare-and-set loses its race or whose lease is fenced (0 rows), or whose commit is
-- refused (a record off its chain, a key its set holds, bad arguments: the error's SQLSTATE and
-- message) fails alone and the other runs still commit. The whole call is one statement: sent with
-- auto-commit on it is one transaction, so a crash while it is in flight commits every run that
-- won or none. Calling ratchet_commit, not a copy of its body, keeps whatever checks that function
-- makes (it may be made leaner, D34) the checks of a batched commit. The caller sends the runs in
-- (task, run) order, so two batches take their mark rows in one order and cannot deadlock.
-- QUERY_CANCELED is not caught (a cancelled call rolls back whole). One result row per run, in
-- input order: o_index (1-based), o_rows, o_judged_at_ms, and o_state, o_message, o_detail when
-- it raised.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_commit_batch, the commits of several runs in one call

CREATE FUNCTION ratchet_commit_batch(
  p_tasks TEXT[], p_runs TEXT[], p_instances TEXT[], p_expected BIGINT[], p_digests TEXT[],
  p_checkpoints TEXT[], p_owners TEXT[], p_lease_versions BIGINT[], p_tokens BYTEA[],
  p_retain_older INTEGER, p_record_counts INTEGER[],
  p_sets TEXT[], p_sequences BIGINT[], p_keys TEXT[], p_key_json TEXT[], p_bodies TEXT[],
  p_chains TEXT[])
RETURNS TABLE (o_index INTEGER, o_rows INTEGER, o_judged_at_ms BIGINT, o_state TEXT,
  o_message TEXT, o_detail TEXT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_n INTEGER := COALESCE(cardinality(p_tasks), 0);
  v_records INTEGER := COALESCE(cardinality(p_sets), 0);
  v_total BIGINT := 0;
  v_lo INTEGER := 1;
  v_hi INTEGER;
  v_rows INTEGER;
  v_at BIGINT;
  v_detail TEXT;
BEGIN
  IF v_n = 0 OR COALESCE(cardinality(p_runs), 0) <> v_n
     OR COALESCE(cardinality(p_instances), 0) <> v_n
     OR COALESCE(cardinality(p_expected), 0) <> v_n
     OR COALESCE(cardinality(p_digests), 0) <> v_n
     OR COALESCE(cardinality(p_checkpoints), 0) <> v_n
     OR COALESCE(cardinality(p_owners), 0) <> v_n
     OR COALESCE(cardinality(p_lease_versions), 0) <> v_n
     OR COALESCE(cardinality(p_tokens), 0) <> v_n
     OR COALESCE(cardinality(p_record_counts), 0) <> v_n THEN
    RAISE EXCEPTION 'ratchet_commit_batch: run arrays differ in length or are empty'
      USING ERRCODE = '22023';
  END IF;
  FOR i IN 1 .. v_n LOOP
    IF p_record_counts[i] IS NULL OR p_record_counts[i] < 0 THEN
      RAISE EXCEPTION 'ratchet_commit_batch: record count % is invalid', i USING ERRCODE = '22023';
    END IF;
    v_total := v_total + p_record_counts[i];
  END LOOP;
  IF v_total <> v_records OR COALESCE(cardinality(p_sequences), 0) <> v_records
     OR COALESCE(cardinality(p_keys), 0) <> v_records
     OR COALESCE(cardinality(p_key_json), 0) <> v_records
     OR COALESCE(cardinality(p_bodies), 0) <> v_records
     OR COALESCE(cardinality(p_chains), 0) <> v_records THEN
    RAISE EXCEPTION 'ratchet_commit_batch: record arrays differ from the record counts'
      USING ERRCODE = '22023';
  END IF;
  FOR i IN 1 .. v_n LOOP
    v_hi := v_lo + p_record_counts[i] - 1;
    o_index := i;
    o_state := NULL;
    o_message := NULL;
    o_detail := NULL;
    BEGIN
      SELECT c.o_rows, c.o_judged_at_ms INTO v_rows, v_at
        FROM ratchet_commit(p_tasks[i], p_runs[i], p_instances[i], p_expected[i], p_digests[i],
               p_checkpoints[i], p_owners[i], p_lease_versions[i], p_tokens[i], p_retain_older,
               COALESCE(p_sets[v_lo:v_hi], '{}'), COALESCE(p_sequences[v_lo:v_hi], '{}'),
               COALESCE(p_keys[v_lo:v_hi], '{}'), COALESCE(p_key_json[v_lo:v_hi], '{}'),
               COALESCE(p_bodies[v_lo:v_hi], '{}'), COALESCE(p_chains[v_lo:v_hi], '{}')) c;
      o_rows := v_rows;
      o_judged_at_ms := v_at;
    EXCEPTION WHEN OTHERS THEN
      -- This run's writes are rolled back with its subtransaction; the others are untouched.
      o_rows := 0;
      o_judged_at_ms := NULL;
      GET STACKED DIAGNOSTICS v_detail = PG_EXCEPTION_DETAIL;
      o_state := SQLSTATE;
      o_message := SQLERRM;
      o_detail := NULLIF(v_detail, '');
    END;
    RETURN NEXT;
    v_lo := v_hi + 1;
  END LOOP;
END $$;

REVOKE ALL ON FUNCTION ratchet_commit_batch(text[], text[], text[], bigint[], text[], text[],
  text[], bigint[], bytea[], integer, integer[], text[], bigint[], text[], text[], text[],
  text[]) FROM PUBLIC;

-- Roles already granted the one-call commit (workers) may call the batched one as well, so a store
-- migrated under running workers can batch without granting the roles again.
DO $$
DECLARE
  v_role TEXT;
BEGIN
  FOR v_role IN SELECT DISTINCT p.grantee FROM information_schema.routine_privileges p
                 WHERE p.specific_schema = current_schema() AND p.routine_name = 'ratchet_commit'
                   AND p.privilege_type = 'EXECUTE' AND p.grantee <> 'PUBLIC' LOOP
    EXECUTE format('GRANT EXECUTE ON FUNCTION ratchet_commit_batch(text[], text[], text[], '
                   'bigint[], text[], text[], text[], bigint[], bytea[], integer, integer[], '
                   'text[], bigint[], text[], text[], text[], text[]) TO %I', v_role);
  END LOOP;
END $$;
