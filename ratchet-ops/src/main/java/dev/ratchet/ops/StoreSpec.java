package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a store lives, as given to {@code --store} or {@code --mark-store}: {@code sqlite:PATH} or
 * a PostgreSQL JDBC URL. Parsing is strict so a typo never silently opens some other database.
 */
public record StoreSpec(Kind kind, Path file, String url, PgRole role, String user) {
  /** Where the default login's PostgreSQL password comes from (docs/cli.md). */
  public static final String PASSWORD_ENV = "RATCHET_PG_PASSWORD";

  /** The prefix of a list of PostgreSQL clusters that runs are spread over (issue 44). */
  public static final String CLUSTERS = "clusters:";

  /** The store kinds the command line can name. */
  public enum Kind {
    SQLITE,
    POSTGRESQL
  }

  public StoreSpec {
    Objects.requireNonNull(kind, "kind");
    role = role == null ? PgRole.OWNER : role;
  }

  /**
   * This spec connecting as {@code role}'s login {@code user} (null: the default user). Only a
   * PostgreSQL store has roles; a SQLite spec is returned as is.
   */
  public StoreSpec as(PgRole role, String user) {
    return kind == Kind.SQLITE ? this : new StoreSpec(kind, file, url, role, user);
  }

  public static StoreSpec sqlite(Path file) {
    return new StoreSpec(Kind.SQLITE, file, null, null, null);
  }

  /** Parses {@code text}; {@code option} names the flag in error messages. */
  public static StoreSpec parse(String option, String text) {
    if (text.startsWith("sqlite:")) {
      String path = text.substring("sqlite:".length());
      if (path.isBlank()) {
        throw RatchetException.contract(
            option + ": 'sqlite:' needs a file path, for example sqlite:.ratchet/ratchet.db");
      }
      return sqlite(Path.of(path));
    }
    if (text.startsWith(CLUSTERS)) {
      // Issue 44: runs spread over several PostgreSQL clusters, each NAME=URL, checked like one.
      for (dev.ratchet.jdbc.Cluster.Entry e :
          dev.ratchet.jdbc.Cluster.parse(option, text.substring(CLUSTERS.length()))) {
        parse(option + " (cluster " + e.name() + ")", e.url());
      }
      return new StoreSpec(Kind.POSTGRESQL, null, text, null, null);
    }
    if (text.startsWith("jdbc:postgresql:")) {
      if (!dev.ratchet.jdbc.Passwords.redact(text).equals(text)) {
        // Credentials come only from the environment (docs/cli.md): refused before anything opens.
        throw RatchetException.contract(
            option
                + ": '"
                + shown(text)
                + "' carries a password (user:PASSWORD@ or password=); a password is read only"
                + " from the environment: remove it from the URL and set "
                + PASSWORD_ENV
                + " (or RATCHET_PG_<ROLE>_PASSWORD for a role's login, docs/cli.md)");
      }
      return new StoreSpec(Kind.POSTGRESQL, null, text, null, null);
    }
    throw RatchetException.contract(
        option
            + ": '"
            + shown(text)
            + "' is not a store: use sqlite:PATH, a jdbc:postgresql://HOST:PORT/DB URL or"
            + " clusters:NAME=URL NAME=URL...");
  }

  /**
   * The stores this spec names: itself, or for {@code clusters:NAME=URL NAME=URL…} (issue 44) each
   * cluster by name, connecting as this spec's role and user.
   */
  public java.util.List<Member> members() {
    if (url == null || !url.startsWith(CLUSTERS)) {
      return java.util.List.of(new Member(null, this));
    }
    return dev.ratchet.jdbc.Cluster.parse("--store", url.substring(CLUSTERS.length())).stream()
        .map(e -> new Member(e.name(), new StoreSpec(kind, null, e.url(), role, user)))
        .toList();
  }

  /** One store of a spec: a cluster's name (null for a plain store) and where it is. */
  public record Member(String cluster, StoreSpec spec) {}

  private static String shown(String text) {
    return dev.ratchet.jdbc.Passwords.redact(text);
  }

  @Override
  public String toString() {
    // A PostgreSQL URL may carry a password (user info or parameter): never echo it.
    return kind == Kind.SQLITE ? "sqlite:" + file : shown(url);
  }
}
