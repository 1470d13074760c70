package dev.ratchet.jdbc;

import dev.ratchet.jdbc.internal.PostgresGrants;
import java.util.List;
import java.util.Objects;

/**
 * The database roles of a PostgreSQL store (docs/store.md, "PostgreSQL roles"):
 *
 * <ul>
 *   <li>the <b>owner</b> owns the schema, its tables and its functions, and runs the migrations
 *       ({@link OpenMode#CREATE}); workers never connect as it;
 *   <li>a <b>worker</b> may read every table, append records and inbox items and write checkpoint
 *       content, but holds no UPDATE or DELETE on the mark, generation or lease tables: it moves a
 *       mark or a lease only through the owner's {@code SECURITY DEFINER} functions, which allow +1
 *       from the current generation under the live lease, judged on the database clock;
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

  /** Connects as {@code owner} and makes {@code role} an inspector of the store. */
  public static void grantInspector(Database owner, String role) {
    PostgresGrants.apply(owner, role, inspectorGrants(owner.schema(), role));
  }
}
