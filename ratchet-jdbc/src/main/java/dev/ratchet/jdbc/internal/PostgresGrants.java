package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The grants of the PostgreSQL roles (docs/store.md "PostgreSQL roles"). Each list starts by
 * revoking whatever the role held in the schema, so applying it twice, or after a role held more,
 * leaves exactly what it says.
 */
public final class PostgresGrants {
  private static final Pattern ROLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /** Every table of the schema: the bookkeeping table and those the migrations create. */
  static final List<String> TABLES =
      Stream.concat(
              Stream.of(Migrator.TABLE),
              SchemaResources.tables(PostgresSchema.migrations("{schema}")).stream())
          .toList();

  private PostgresGrants() {}

  /**
   * A worker (D21): reads every table and executes the run functions; holds no INSERT, UPDATE or
   * DELETE on any table. It writes marks, leases, records and checkpoint content only through the
   * {@code SECURITY DEFINER} functions, each of which checks the lease token.
   */
  public static List<String> worker(String schema, String role) {
    String s = PostgresDialect.quote(schema);
    String r = role(role);
    List<String> out = reader(s, r);
    for (String f : PostgresSchema.WORKER_FUNCTIONS) {
      out.add("GRANT EXECUTE ON FUNCTION " + s + "." + f + " TO " + r);
    }
    return out;
  }

  /**
   * An operator (D21, D26): an inspector that may also deliver inbox items through {@code
   * ratchet_deliver}; no run function, no table write.
   */
  public static List<String> operator(String schema, String role) {
    String s = PostgresDialect.quote(schema);
    String r = role(role);
    List<String> out = reader(s, r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + ".ratchet_now_ms() TO " + r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + "." + PostgresSchema.DELIVER_FUNCTION + " TO " + r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + "." + PostgresSchema.SCHEDULE_FUNCTION + " TO " + r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + "." + PostgresSchema.SUBMIT_FUNCTION + " TO " + r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + "." + PostgresSchema.WAKE_FUNCTION + " TO " + r);
    return out;
  }

  /** An inspector: reads every table and the database clock; writes nothing. */
  public static List<String> inspector(String schema, String role) {
    String s = PostgresDialect.quote(schema);
    String r = role(role);
    List<String> out = reader(s, r);
    out.add("GRANT EXECUTE ON FUNCTION " + s + ".ratchet_now_ms() TO " + r);
    return out;
  }

  private static List<String> reader(String s, String r) {
    List<String> out = revokeAll(s, r);
    out.add("GRANT USAGE ON SCHEMA " + s + " TO " + r);
    out.add("GRANT SELECT ON " + qualified(s, TABLES) + " TO " + r);
    return out;
  }

  /**
   * Runs {@code statements} as {@code owner}'s role in one transaction, after checking that {@code
   * role} exists and is neither a superuser nor a member of the owner role (either ignores every
   * grant).
   */
  public static void apply(Database owner, String role, List<String> statements) {
    try (Connection c = PostgresDialect.connect(owner, 10)) {
      c.setAutoCommit(false);
      refuseUnrestricted(c, owner, role);
      try (Statement st = c.createStatement()) {
        for (String sql : statements) {
          st.execute(sql);
        }
      }
      c.commit();
    } catch (SQLException e) {
      throw Failures.unavailable(owner + ": granting privileges to " + role + " failed", e);
    }
  }

  /**
   * Creates {@code role} as a plain login role (no password, no other attribute) unless a role of
   * that name exists; true when it created it. Needs an owner with {@code CREATEROLE}.
   */
  public static boolean ensureLoginRole(Database owner, String role) {
    String quoted = role(role);
    try (Connection c = PostgresDialect.connect(owner, 10)) {
      try (PreparedStatement ps =
          c.prepareStatement("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ?")) {
        ps.setString(1, role);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            return false;
          }
        }
      }
      try (Statement st = c.createStatement()) {
        st.execute("CREATE ROLE " + quoted + " LOGIN");
      }
      return true;
    } catch (SQLException e) {
      throw Failures.unavailable(
          owner
              + ": creating role "
              + role
              + " failed (the owner needs CREATEROLE, or create the role and rerun)",
          e);
    }
  }

  private static void refuseUnrestricted(Connection c, Database owner, String role)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT rolsuper, pg_has_role(rolname, ?, 'MEMBER') FROM pg_catalog.pg_roles"
                + " WHERE rolname = ?")) {
      ps.setString(1, owner.user());
      ps.setString(2, role);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw RatchetException.contract("role '" + role + "' does not exist");
        }
        if (rs.getBoolean(1) || rs.getBoolean(2)) {
          throw RatchetException.contract(
              "role '"
                  + role
                  + "' is a superuser or a member of the owner role '"
                  + owner.user()
                  + "': no grant could restrict it");
        }
      }
    }
  }

  private static List<String> revokeAll(String s, String r) {
    List<String> out = new ArrayList<>();
    out.add("REVOKE ALL ON ALL TABLES IN SCHEMA " + s + " FROM " + r);
    out.add("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA " + s + " FROM " + r);
    return out;
  }

  private static String qualified(String s, List<String> tables) {
    return String.join(", ", tables.stream().map(t -> s + "." + t).toList());
  }

  private static String role(String role) {
    if (role == null || !ROLE.matcher(role).matches()) {
      throw new IllegalArgumentException("role must match " + ROLE.pattern() + ": '" + role + "'");
    }
    return PostgresDialect.quote(role);
  }
}
