package dev.ratchet.jdbc.internal;

import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL schema, one {@link Migration} per version, loaded from {@code
 * dev/ratchet/jdbc/schema/postgresql/} ({@link SchemaResources}): the same tables as SQLite's plus
 * the {@code SECURITY DEFINER} functions through which alone a worker moves a mark or a lease. Each
 * function pins {@code search_path} to the store's schema with {@code pg_temp} last, so a worker's
 * temporary table cannot shadow a store table inside it, and {@code EXECUTE} is revoked from {@code
 * PUBLIC}; {@code dev.ratchet.jdbc.PostgresAccess} grants it to chosen roles. {@code {schema}} in a
 * statement stands for the quoted schema name. Never edit a released migration: add the next
 * version. docs/store.md describes every table and function.
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
          "ratchet_prune_content(text, text, bigint, text[], text, bigint, bytea)",
          // version 4 (ADR 0060): a worker claims, parks and finishes scheduled runs
          "ratchet_claim(text, bigint, text)",
          "ratchet_park(text, text, bigint, bigint, text, bigint, bytea)",
          "ratchet_finish(text, text, text, bigint, bytea)",
          // version 5 (ADR 0043): a whole commit in one call
          "ratchet_commit(text, text, text, bigint, text, text, text, bigint, bytea, integer,"
              + " text[], bigint[], text[], text[], text[], text[])",
          // version 15 (ADR 0065): takeover-first claims in one call; finish and release in one
          "ratchet_claim_next(text, bigint, text)",
          "ratchet_finish_release(text, text, text, bigint, bytea)",
          // version 17 (ADR 0141): the commits of several runs in one call
          PostgresSchema.BATCH_COMMIT_FUNCTION,
          // version 18 (issue 39): park and finish with the reason an operator reads
          "ratchet_park_with_reason(text, text, bigint, bigint, text, text, bigint, bytea)",
          "ratchet_finish_with_reason(text, text, text, text, bigint, bytea)",
          // version 20 (issue 39): a resume's lease holder claims its run's row (clears reason)
          "ratchet_claim_held(text, text, text, bigint, bytea)",
          // ADR 0053 (issue 39): a worker that reloads a changed trust root wakes waiting runs
          PostgresSchema.WAKE_FUNCTION);

  /** The commits of several runs in one call, each in its own subtransaction (version 17). */
  static final String BATCH_COMMIT_FUNCTION =
      "ratchet_commit_batch(text[], text[], text[], bigint[], text[], text[], text[], bigint[],"
          + " bytea[], integer, integer[], text[], bigint[], text[], text[], text[], text[])";

  /** The operator's enqueue (version 4, ADR 0060): a scheduling row for a submitted run. */
  static final String SCHEDULE_FUNCTION = "ratchet_schedule(text, text, text, text)";

  /** The operator's submit (version 6, ADR 0061): a signed task stored and scheduled. */
  static final String SUBMIT_FUNCTION = "ratchet_submit(text, text, text, text)";

  /**
   * Wakes every waiting run (ADR 0053, issue 39): the operator's after {@code keys trust}, the
   * worker's after it reloads a changed trust root.
   */
  static final String WAKE_FUNCTION = "ratchet_wake_waiting()";

  /** The operator's one write (D21): an inbox item, shape-checked, with a notification. */
  static final String DELIVER_FUNCTION = "ratchet_deliver(text, text, text, text, text)";

  /** The migrations for {@code quotedSchema}, from the {@code postgresql} resources. */
  static List<Migration> migrations(String quotedSchema) {
    return SchemaResources.load("postgresql", Map.of("schema", quotedSchema));
  }
}
