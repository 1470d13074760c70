package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.PostgresAccess;
import dev.ratchet.jdbc.StoreOptions;
import java.io.PrintWriter;
import java.time.InstantSource;
import java.util.regex.Pattern;

/**
 * {@code ratchet db init}, run as the owner: migrates (creates) the schema, creates each configured
 * role user that does not exist yet ({@code LOGIN}, no password: the administrator sets one), and
 * grants each its D21 privileges through {@link PostgresAccess}, which first revokes whatever it
 * held, so running it again changes nothing. Prints what it did; never a password.
 */
public final class DbInit {
  private static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private DbInit() {}

  public static void run(Settings settings, InstantSource clock, PrintWriter out) {
    StoreSpec spec = settings.storeSpec();
    if (spec.kind() != StoreSpec.Kind.POSTGRESQL) {
      throw RatchetException.contract(
          "--store: db init is for a PostgreSQL store (jdbc:postgresql://...); a SQLite store is"
              + " created by its first run");
    }
    for (StoreSpec.Member m : spec.members()) {
      if (m.cluster() != null) {
        out.println("cluster " + m.cluster() + ":"); // issue 44: each cluster alike
      }
      init(settings, StoreFactories.database(m.spec()), clock, out);
    }
  }

  private static void init(
      Settings settings, Database owner, InstantSource clock, PrintWriter out) {
    // Opening with CREATE migrates; the store itself is not needed afterwards.
    JdbcStore.open(owner, StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE)).close();
    out.println(
        "schema " + owner.schema() + ": migrated to the current version as " + owner.user());
    int configured = 0;
    for (PgRole role : new PgRole[] {PgRole.WORKER, PgRole.OPERATOR, PgRole.INSPECTOR}) {
      String user = role.configuredUser(settings.resolvedHome());
      if (user == null) {
        out.println(
            role.name().toLowerCase(java.util.Locale.ROOT)
                + ": no user configured ("
                + role.userEnv()
                + " or "
                + role.userKey()
                + " in ratchet.properties); skipped");
        continue;
      }
      configured++;
      if (!USER.matcher(user).matches()) {
        throw RatchetException.contract(
            role.userKey() + ": '" + user + "' must match " + USER.pattern());
      }
      boolean created = PostgresAccess.ensureLoginRole(owner, user);
      switch (role) {
        case WORKER -> PostgresAccess.grantWorker(owner, user);
        case OPERATOR -> PostgresAccess.grantOperator(owner, user);
        default -> PostgresAccess.grantInspector(owner, user);
      }
      out.println(
          role.name().toLowerCase(java.util.Locale.ROOT)
              + ": "
              + (created
                  ? "created role " + user + " (LOGIN, no password set); "
                  : "role " + user + ": ")
              + "granted the "
              + role.name().toLowerCase(java.util.Locale.ROOT)
              + " privileges");
    }
    out.println(
        "db init: done ("
            + configured
            + " role(s) granted; passwords are read from RATCHET_PG_<ROLE>_PASSWORD, never"
            + " stored)");
  }
}
