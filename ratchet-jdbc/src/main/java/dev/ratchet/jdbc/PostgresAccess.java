package dev.ratchet.jdbc;

import dev.ratchet.jdbc.internal.PostgresGrants;
import java.util.List;
import java.util.Objects;

/**
 * The database roles of a PostgreSQL store (docs/store.md, "PostgreSQL roles"):
 *
 * <ul>
 *   <li>the <b>owner</b> owns the schema, its tables and its functions, and runs the migrations
 *       ({@link OpenMode#CREATE}); workers never connect as it. It is the only role that holds
 *       INSERT, UPDATE or DELETE on any table;
 *   <li>a <b>worker</b> reads every table and executes the run functions ({@code ratchet_grant},
 *       {@code ratchet_renew}, {@code ratchet_release}, {@code ratchet_advance}, {@code
 *       ratchet_append}, {@code ratchet_put_content}, {@code ratchet_prune_content}, and since
 *       schema version 5 {@code ratchet_commit}, which does all of a commit in one call): {@code
 *       SECURITY DEFINER} functions that check the lease token (D21) and judge the lease on the
 *       database clock, so it can move only its own runs, forward by one, under its live lease;
 *   <li>an <b>operator</b> is an inspector that may also deliver inbox items through {@code
 *       ratchet_deliver} (the run must exist; the item's shape is checked);
 *   <li>an <b>inspector</b> reads, and writes nothing.
 * </ul>
 *
 * <p>The roles themselves are created by whoever administers the server ({@code CREATE ROLE ...
 * LOGIN}); these methods grant their privileges in a migrated schema, revoking whatever else the
 * role held there first. Re-run them after a migration that adds tables or functions.
 */
public final class PostgresAccess {
  private PostgresAccess() {}

  /** The statements that make {@code role} a worker of the store in {@code schema}. */
  public static List<String> workerGrants(String schema, String role) {
    Objects.requireNonNull(schema, "schema");
    return PostgresGrants.worker(schema, role);
  }

  /** The statements that make {@code role} an operator of the store in {@code schema}. */
  public static List<String> operatorGrants(String schema, String role) {
    Objects.requireNonNull(schema, "schema");
    return PostgresGrants.operator(schema, role);
  }

  /** The statements that make {@code role} an inspector of the store in {@code schema}. */
  public static List<String> inspectorGrants(String schema, String role) {
    Objects.requireNonNull(schema, "schema");
    return PostgresGrants.inspector(schema, role);
  }

  /**
   * Connects as {@code owner} and makes {@code role} a worker of the store in {@code owner}'s
   * schema. Refused ({@code CONTRACT}) if {@code role} does not exist, is a superuser or is a
   * member of the owner role, since no grant restricts those.
   */
  public static void grantWorker(Database owner, String role) {
    PostgresGrants.apply(owner, role, workerGrants(owner.schema(), role));
  }

  /** Connects as {@code owner} and makes {@code role} an operator of the store. */
  public static void grantOperator(Database owner, String role) {
    PostgresGrants.apply(owner, role, operatorGrants(owner.schema(), role));
  }

  /** Connects as {@code owner} and makes {@code role} an inspector of the store. */
  public static void grantInspector(Database owner, String role) {
    PostgresGrants.apply(owner, role, inspectorGrants(owner.schema(), role));
  }

  /**
   * Connects as {@code owner} and creates {@code role} as a login role without a password unless it
   * exists (for {@code ratchet db init}); true when it created it. The administrator sets its
   * password. {@code STORE_UNAVAILABLE} when the owner may not create roles.
   */
  public static boolean ensureLoginRole(Database owner, String role) {
    return PostgresGrants.ensureLoginRole(owner, role);
  }
}
