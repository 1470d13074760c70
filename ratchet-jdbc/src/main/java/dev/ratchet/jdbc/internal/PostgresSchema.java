package dev.ratchet.jdbc.internal;

import java.util.List;

/**
 * The PostgreSQL schema, one {@link Migration} per version: the same tables as SQLite's ({@link
 * SqliteSchema}) plus the {@code SECURITY DEFINER} functions through which alone a worker moves a
 * mark or a lease. Each function pins {@code search_path} to the store's schema with {@code
 * pg_temp} last, so a worker's temporary table cannot shadow a store table inside it, and {@code
 * EXECUTE} is revoked from {@code PUBLIC}; {@code dev.ratchet.jdbc.PostgresAccess} grants it to
 * chosen roles. {@code {schema}} in a statement stands for the quoted schema name. Never edit a
 * released migration: add the next version. docs/store.md describes every table and function.
 */
final class PostgresSchema {
  private PostgresSchema() {}

  /**
   * The run functions a worker may execute, with their signatures (for GRANT and REVOKE): since
   * version 2 (D21) each write takes the lease token and is the worker's only way to write.
   */
  static final List<String> WORKER_FUNCTIONS =
      List.of(
          "ratchet_now_ms()",
          "ratchet_advance(text, text, text, bigint, text, text, bigint, bytea, integer)",
          "ratchet_grant(text, text, bigint, boolean, text)",
          "ratchet_renew(text, text, bigint, bytea, bigint)",
          "ratchet_release(text, text, bigint, bytea)",
          "ratchet_append(text, text, text, bigint, text, text, text, text, bigint, bytea)",
          "ratchet_put_content(text, text, text, bigint, text, text, bigint, bytea)",
          "ratchet_prune_content(text, text, bigint, text[], text, bigint, bytea)");

  /** The operator's one write (D21): an inbox item, shape-checked, with a notification. */
  static final String DELIVER_FUNCTION = "ratchet_deliver(text, text, text, text, text)";

  /** The migrations for {@code quotedSchema}. */
  static List<Migration> migrations(String quotedSchema) {
    List<Migration> out = new java.util.ArrayList<>(v1(quotedSchema));
    out.add(SqlScript.load("postgresql", "V2__lease_tokens_and_roles.sql", 2, quotedSchema));
    return List.copyOf(out);
  }

  private static List<Migration> v1(String quotedSchema) {
    return TEMPLATES.stream()
        .map(
            m ->
                new Migration(
                    m.version(),
                    m.description(),
                    m.statements().stream()
                        .map(
                            sql ->
                                sql.replace("{live_lease}", LIVE_LEASE)
                                    .replace("{schema}", quotedSchema))
                        .toList()))
        .toList();
  }

  private static final String LIVE_LEASE =
      """
      EXISTS (SELECT 1 FROM ratchet_leases l WHERE l.run_id = p_run AND l.owner = p_owner
                 AND l.version = p_lease_version AND l.held = 1
                 AND l.expires_at_ms > o_judged_at_ms)""";

  private static final List<Migration> TEMPLATES =
      List.of(
          new Migration(
              1,
              "marks, generations, checkpoints, records, leases, inbox; guarded mark and lease"
                  + " functions",
              List.of(
                  // The high-water mark: one row per run, advanced only by ratchet_advance.
                  """
                  CREATE TABLE ratchet_marks (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    generation BIGINT NOT NULL CHECK (generation >= 1),
                    content_digest TEXT NOT NULL,
                    environment_instance_id TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id))""",
                  // Which digest each retained generation had (written by ratchet_advance only).
                  """
                  CREATE TABLE ratchet_generations (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    generation BIGINT NOT NULL,
                    content_digest TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, generation))""",
                  // Checkpoint content, addressed by its digest (content side).
                  """
                  CREATE TABLE ratchet_checkpoints (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    content_digest TEXT NOT NULL,
                    generation BIGINT NOT NULL,
                    body TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, content_digest))""",
                  // The growing sets (D6): append-only, hash-chained, looked up by key.
                  """
                  CREATE TABLE ratchet_records (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    set_name TEXT NOT NULL,
                    sequence BIGINT NOT NULL CHECK (sequence >= 1),
                    record_key TEXT NOT NULL,
                    body TEXT NOT NULL,
                    chain TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, set_name, sequence))""",
                  """
                  CREATE UNIQUE INDEX ratchet_records_by_key
                    ON ratchet_records (task_id, run_id, set_name, record_key)""",
                  // Leases (D8): expiry judged on the database clock, in epoch milliseconds.
                  """
                  CREATE TABLE ratchet_leases (
                    run_id TEXT NOT NULL PRIMARY KEY,
                    owner TEXT NOT NULL,
                    version BIGINT NOT NULL CHECK (version >= 1),
                    expires_at_ms BIGINT NOT NULL,
                    held INTEGER NOT NULL CHECK (held IN (0, 1)))""",
                  // Operator decisions waiting for the lease holder (D12), by nonce.
                  """
                  CREATE TABLE ratchet_inbox (
                    task_id TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    position BIGINT NOT NULL,
                    kind TEXT NOT NULL,
                    envelope TEXT NOT NULL,
                    PRIMARY KEY (task_id, run_id, nonce))""",
                  """
                  CREATE UNIQUE INDEX ratchet_inbox_by_position
                    ON ratchet_inbox (task_id, run_id, position)""",
                  // The one clock that judges every lease (D8): the server's, in epoch ms.
                  """
                  CREATE FUNCTION ratchet_now_ms() RETURNS BIGINT
                  LANGUAGE sql VOLATILE SET search_path = {schema}, pg_temp
                  AS $$ SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint $$""",
                  // The compare-and-set of a commit: +1 from the current generation only, under
                  // the live lease, judged at the time it returns; logs the generation it made.
                  """
                  CREATE FUNCTION ratchet_advance(
                    p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT, p_digest TEXT,
                    p_owner TEXT, p_lease_version BIGINT, p_retain_older INTEGER,
                    OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
                  LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
                  BEGIN
                    IF p_task IS NULL OR p_run IS NULL OR p_instance IS NULL OR p_digest IS NULL
                       OR p_owner IS NULL OR p_lease_version IS NULL OR p_expected IS NULL
                       OR p_expected < 0 OR p_retain_older IS NULL OR p_retain_older < 0 THEN
                      RAISE EXCEPTION 'ratchet_advance: invalid arguments' USING ERRCODE = '22023';
                    END IF;
                    o_judged_at_ms := ratchet_now_ms();
                    IF p_expected = 0 THEN
                      INSERT INTO ratchet_marks
                        (task_id, run_id, generation, content_digest, environment_instance_id)
                      SELECT p_task, p_run, 1, p_digest, p_instance
                       WHERE {live_lease}
                      ON CONFLICT (task_id, run_id) DO NOTHING;
                    ELSE
                      UPDATE ratchet_marks m SET generation = p_expected + 1, content_digest = p_digest
                       WHERE m.task_id = p_task AND m.run_id = p_run AND m.generation = p_expected
                         AND m.environment_instance_id = p_instance
                         AND {live_lease};
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
                  END $$""",
                  // Grants a lease that is free (never held, released, or expired when stealing).
                  """
                  CREATE FUNCTION ratchet_grant(
                    p_run TEXT, p_owner TEXT, p_ttl_ms BIGINT, p_steal BOOLEAN,
                    OUT o_version BIGINT, OUT o_expires_at_ms BIGINT)
                  LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
                  DECLARE
                    v_now BIGINT;
                  BEGIN
                    IF p_run IS NULL OR p_owner IS NULL OR p_ttl_ms IS NULL OR p_ttl_ms <= 0
                       OR p_steal IS NULL THEN
                      RAISE EXCEPTION 'ratchet_grant: invalid arguments' USING ERRCODE = '22023';
                    END IF;
                    v_now := ratchet_now_ms();
                    INSERT INTO ratchet_leases AS l (run_id, owner, version, expires_at_ms, held)
                    VALUES (p_run, p_owner, 1, v_now + p_ttl_ms, 1)
                    ON CONFLICT (run_id) DO UPDATE
                       SET owner = excluded.owner, version = l.version + 1,
                           expires_at_ms = excluded.expires_at_ms, held = 1
                     WHERE l.held = 0 OR (p_steal AND l.expires_at_ms <= v_now)
                    RETURNING l.version, l.expires_at_ms INTO o_version, o_expires_at_ms;
                  END $$""",
                  // Extends a live lease, same version; NULL expiry when refused.
                  """
                  CREATE FUNCTION ratchet_renew(
                    p_run TEXT, p_owner TEXT, p_version BIGINT, p_ttl_ms BIGINT,
                    OUT o_expires_at_ms BIGINT, OUT o_judged_at_ms BIGINT)
                  LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
                  BEGIN
                    IF p_run IS NULL OR p_owner IS NULL OR p_version IS NULL OR p_ttl_ms IS NULL
                       OR p_ttl_ms <= 0 THEN
                      RAISE EXCEPTION 'ratchet_renew: invalid arguments' USING ERRCODE = '22023';
                    END IF;
                    o_judged_at_ms := ratchet_now_ms();
                    UPDATE ratchet_leases l SET expires_at_ms = o_judged_at_ms + p_ttl_ms
                     WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_version
                       AND l.held = 1 AND l.expires_at_ms > o_judged_at_ms
                    RETURNING l.expires_at_ms INTO o_expires_at_ms;
                  END $$""",
                  // Gives a lease up if it is still this one; returns the rows changed (0 or 1).
                  """
                  CREATE FUNCTION ratchet_release(p_run TEXT, p_owner TEXT, p_version BIGINT)
                  RETURNS INTEGER
                  LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
                  DECLARE
                    v_rows INTEGER;
                  BEGIN
                    UPDATE ratchet_leases l SET held = 0
                     WHERE l.run_id = p_run AND l.owner = p_owner AND l.version = p_version
                       AND l.held = 1;
                    GET DIAGNOSTICS v_rows = ROW_COUNT;
                    RETURN v_rows;
                  END $$""",
                  // Functions are executable by PUBLIC by default: only granted roles may.
                  "REVOKE ALL ON FUNCTION ratchet_now_ms() FROM PUBLIC",
                  "REVOKE ALL ON FUNCTION ratchet_advance(text, text, text, bigint, text, text,"
                      + " bigint, integer) FROM PUBLIC",
                  "REVOKE ALL ON FUNCTION ratchet_grant(text, text, bigint, boolean) FROM PUBLIC",
                  "REVOKE ALL ON FUNCTION ratchet_renew(text, text, bigint, bigint) FROM PUBLIC",
                  "REVOKE ALL ON FUNCTION ratchet_release(text, text, bigint) FROM PUBLIC")));
}
