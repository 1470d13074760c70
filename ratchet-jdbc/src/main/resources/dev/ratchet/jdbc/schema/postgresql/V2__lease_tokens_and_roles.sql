-- PostgreSQL schema, version 2 (SPEC D21): leases are capabilities and every write is a function.
-- The store keeps the SHA-256 (hex) of each lease's secret token; the functions below take the
-- token itself (bytea), hash it and compare. A worker role holds no INSERT, UPDATE or DELETE on any
-- table (dev.ratchet.jdbc.PostgresAccess): it writes marks, leases, records and checkpoint content
-- only through these SECURITY DEFINER functions, each pinned to the store's schema ({schema}) with
-- pg_temp last; an operator delivers inbox items only through ratchet_deliver. The version-1
-- functions that took no token are dropped. A lease granted before this version has no hash, so no
-- token matches it: its holder is fenced, and the run is taken over once the lease expires.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: lease token hashes; token-checked run functions; ratchet_deliver

ALTER TABLE ratchet_leases ADD COLUMN token_hash TEXT;

DROP FUNCTION ratchet_advance(text, text, text, bigint, text, text, bigint, integer);
DROP FUNCTION ratchet_grant(text, text, bigint, boolean);
DROP FUNCTION ratchet_renew(text, text, bigint, bigint);
DROP FUNCTION ratchet_release(text, text, bigint);

-- TRUE while (p_owner, p_version) is the run's held, unexpired lease and p_token hashes to its
-- token_hash. The hash is readable by anyone who reads the table, so comparing hashes leaks
-- nothing about the token.
CREATE FUNCTION ratchet_holds(
  p_run TEXT, p_owner TEXT, p_version BIGINT, p_token BYTEA, p_now_ms BIGINT)
RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {schema}, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ratchet_leases l
                      WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_version
                        AND l.held = 1 AND l.expires_at_ms > p_now_ms
                        AND p_token IS NOT NULL AND l.token_hash IS NOT NULL
                        AND l.token_hash = encode(sha256(p_token), 'hex')) $$;

-- TRUE while (p_owner, p_version) is the run's held lease and p_token is its token, expired or not:
-- the guard of the writes that follow a compare-and-set in the same transaction (which judged
-- expiry), so a lease expiring between the two cannot fail a commit that already won.
CREATE FUNCTION ratchet_owns(p_run TEXT, p_owner TEXT, p_version BIGINT, p_token BYTEA)
RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {schema}, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM ratchet_leases l
                      WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_version
                        AND l.held = 1 AND p_token IS NOT NULL AND l.token_hash IS NOT NULL
                        AND l.token_hash = encode(sha256(p_token), 'hex')) $$;

-- The compare-and-set of a commit: +1 from the current generation only, under the live lease and
-- its token, judged at the time it returns; logs the generation it made.
CREATE FUNCTION ratchet_advance(
  p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT, p_digest TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA, p_retain_older INTEGER,
  OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_instance IS NULL OR p_digest IS NULL
     OR p_owner IS NULL OR p_lease_version IS NULL OR p_token IS NULL OR p_expected IS NULL
     OR p_expected < 0 OR p_retain_older IS NULL OR p_retain_older < 0 THEN
    RAISE EXCEPTION 'ratchet_advance: invalid arguments' USING ERRCODE = '22023';
  END IF;
  o_judged_at_ms := ratchet_now_ms();
  IF p_expected = 0 THEN
    INSERT INTO ratchet_marks
      (task_id, run_id, generation, content_digest, environment_instance_id)
    SELECT p_task, p_run, 1, p_digest, p_instance
     WHERE ratchet_holds(p_run, p_owner, p_lease_version, p_token, o_judged_at_ms)
    ON CONFLICT (task_id, run_id) DO NOTHING;
  ELSE
    UPDATE ratchet_marks m SET generation = p_expected + 1, content_digest = p_digest
     WHERE m.task_id = p_task AND m.run_id = p_run AND m.generation = p_expected
       AND m.environment_instance_id = p_instance
       AND ratchet_holds(p_run, p_owner, p_lease_version, p_token, o_judged_at_ms);
  END IF;
  GET DIAGNOSTICS o_rows = ROW_COUNT;
  IF o_rows = 1 THEN
    INSERT INTO ratchet_generations AS g
      (task_id, run_id, generation, content_digest)
    VALUES (p_task, p_run, p_expected + 1, p_digest)
    ON CONFLICT (task_id, run_id, generation)
    DO UPDATE SET content_digest = excluded.content_digest;
    DELETE FROM ratchet_generations g
     WHERE g.task_id = p_task AND g.run_id = p_run
       AND g.generation < p_expected + 1 - p_retain_older;
  END IF;
END $$;

-- Grants a lease that is free (never held, released, or expired when stealing) and stores the hash
-- of the token the caller generated; a live lease is never taken (NULL version).
CREATE FUNCTION ratchet_grant(
  p_run TEXT, p_owner TEXT, p_ttl_ms BIGINT, p_steal BOOLEAN, p_token_hash TEXT,
  OUT o_version BIGINT, OUT o_expires_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_now BIGINT;
BEGIN
  IF p_run IS NULL OR p_owner IS NULL OR p_ttl_ms IS NULL OR p_ttl_ms <= 0
     OR p_steal IS NULL OR p_token_hash IS NULL OR p_token_hash !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'ratchet_grant: invalid arguments' USING ERRCODE = '22023';
  END IF;
  v_now := ratchet_now_ms();
  INSERT INTO ratchet_leases AS l (run_id, owner, version, expires_at_ms, held, token_hash)
  VALUES (p_run, p_owner, 1, v_now + p_ttl_ms, 1, p_token_hash)
  ON CONFLICT (run_id) DO UPDATE
     SET owner = excluded.owner, version = l.version + 1,
         expires_at_ms = excluded.expires_at_ms, held = 1, token_hash = excluded.token_hash
   WHERE l.held = 0 OR (p_steal AND l.expires_at_ms <= v_now)
  RETURNING l.version, l.expires_at_ms INTO o_version, o_expires_at_ms;
END $$;

-- Extends the live lease whose token this is, same version; NULL expiry when refused.
CREATE FUNCTION ratchet_renew(
  p_run TEXT, p_owner TEXT, p_version BIGINT, p_token BYTEA, p_ttl_ms BIGINT,
  OUT o_expires_at_ms BIGINT, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF p_run IS NULL OR p_owner IS NULL OR p_version IS NULL OR p_token IS NULL
     OR p_ttl_ms IS NULL OR p_ttl_ms <= 0 THEN
    RAISE EXCEPTION 'ratchet_renew: invalid arguments' USING ERRCODE = '22023';
  END IF;
  o_judged_at_ms := ratchet_now_ms();
  UPDATE ratchet_leases l SET expires_at_ms = o_judged_at_ms + p_ttl_ms
   WHERE l.run_id = p_run
     AND ratchet_holds(p_run, p_owner, p_version, p_token, o_judged_at_ms)
  RETURNING l.expires_at_ms INTO o_expires_at_ms;
END $$;

-- Gives a lease up if it is still this one and the token is its token; returns the rows changed.
CREATE FUNCTION ratchet_release(p_run TEXT, p_owner TEXT, p_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  UPDATE ratchet_leases l SET held = 0
   WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_version AND l.held = 1
     AND p_token IS NOT NULL AND l.token_hash = encode(sha256(p_token), 'hex');
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- Appends one record of a run's growing set under the run's lease and its token. The caller checks
-- that the record continues its set's chain; a repeated key or sequence is a unique violation.
CREATE FUNCTION ratchet_append(
  p_task TEXT, p_run TEXT, p_set TEXT, p_sequence BIGINT, p_key TEXT, p_body TEXT, p_chain TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF NOT ratchet_owns(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_append: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  INSERT INTO ratchet_records (task_id, run_id, set_name, sequence, record_key, body, chain)
  VALUES (p_task, p_run, p_set, p_sequence, p_key, p_body, p_chain);
END $$;

-- True when this database holds the run's lease row (the mark side); the content side of a split
-- store holds no leases, and its content is checked by digest alone.
CREATE FUNCTION ratchet_content_allowed(
  p_run TEXT, p_owner TEXT, p_version BIGINT, p_token BYTEA)
RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {schema}, pg_temp
AS $$ SELECT NOT EXISTS (SELECT 1 FROM ratchet_leases WHERE run_id = p_run)
          OR ratchet_owns(p_run, p_owner, p_version, p_token) $$;

-- Writes checkpoint content addressed by its digest: the body must hash to the digest, so a row
-- can only ever hold the content its digest names.
CREATE FUNCTION ratchet_put_content(
  p_task TEXT, p_run TEXT, p_digest TEXT, p_generation BIGINT, p_body TEXT,
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
BEGIN
  IF p_body IS NULL OR p_digest IS NULL
     OR encode(sha256(convert_to(p_body, 'UTF8')), 'hex') <> p_digest THEN
    RAISE EXCEPTION 'ratchet_put_content: body does not hash to its digest' USING ERRCODE = '22023';
  END IF;
  IF NOT ratchet_content_allowed(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_put_content: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  INSERT INTO ratchet_checkpoints AS k (task_id, run_id, content_digest, generation, body)
  VALUES (p_task, p_run, p_digest, p_generation, p_body)
  ON CONFLICT (task_id, run_id, content_digest) DO UPDATE
     SET generation = GREATEST(k.generation, excluded.generation);
END $$;

-- Deletes the run's content that is neither retained nor newer than p_up_to; returns the count.
CREATE FUNCTION ratchet_prune_content(
  p_task TEXT, p_run TEXT, p_up_to BIGINT, p_retained TEXT[],
  p_owner TEXT, p_lease_version BIGINT, p_token BYTEA)
RETURNS INTEGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_rows INTEGER;
BEGIN
  IF NOT ratchet_content_allowed(p_run, p_owner, p_lease_version, p_token) THEN
    RAISE EXCEPTION 'ratchet_prune_content: run % is not leased under this token', p_run
      USING ERRCODE = '42501';
  END IF;
  DELETE FROM ratchet_checkpoints k
   WHERE k.task_id = p_task AND k.run_id = p_run AND k.generation <= p_up_to
     AND NOT (k.content_digest = ANY (COALESCE(p_retained, ARRAY[]::TEXT[])));
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;

-- An operator's delivery (D12, D21): the run must exist, the item must have the shape of an inbox
-- item (a nonce of 1 to 200 characters, a known kind, a JSON object envelope of at most 1 MiB), and
-- the nonce must be new to the run (neither delivered nor consumed). Inserts at the next position
-- and notifies the channel ratchet_inbox with the run's JSON address.
CREATE FUNCTION ratchet_deliver(
  p_task TEXT, p_run TEXT, p_nonce TEXT, p_kind TEXT, p_envelope TEXT)
RETURNS BIGINT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_position BIGINT;
BEGIN
  IF p_task IS NULL OR p_run IS NULL OR p_nonce IS NULL OR length(p_nonce) = 0
     OR length(p_nonce) > 200 OR p_kind IS NULL OR p_kind NOT IN ('APPROVAL', 'REVIEW_DECISION')
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

REVOKE ALL ON FUNCTION ratchet_holds(text, text, bigint, bytea, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_owns(text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_advance(text, text, text, bigint, text, text, bigint, bytea, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_grant(text, text, bigint, boolean, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_renew(text, text, bigint, bytea, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_release(text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_append(text, text, text, bigint, text, text, text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_content_allowed(text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_put_content(text, text, text, bigint, text, text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_prune_content(text, text, bigint, text[], text, bigint, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_deliver(text, text, text, text, text) FROM PUBLIC;
