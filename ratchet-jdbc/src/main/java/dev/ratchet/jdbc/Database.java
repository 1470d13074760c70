package dev.ratchet.jdbc;

import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a store lives: an SQLite file, or a schema in a PostgreSQL database reached as one role.
 * The dialect seam in {@code internal} picks the SQL and the connection handling for each kind.
 *
 * <p>A PostgreSQL {@code Database} names the role the store connects as: the schema owner (who may
 * run migrations, {@link OpenMode#CREATE}), a worker (who may only commit through the store's
 * functions) or an inspector (read only); see {@link PostgresAccess} and {@code docs/store.md}.
 * {@link #toString} never shows the password, nor the query part of the JDBC URL.
 */
public final class Database {
  /** The database engines the store speaks. */
  public enum Kind {
    SQLITE,
    POSTGRES
  }

  /** The schema a PostgreSQL store uses unless told otherwise. */
  public static final String DEFAULT_SCHEMA = "ratchet";

  /** Connections a PostgreSQL store keeps at most, unless told otherwise. */
  public static final int DEFAULT_POOL_SIZE = 16;

  public static final int MAX_POOL_SIZE = 1000;

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final Kind kind;
  private final Path file;
  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final String schema;
  private final int poolSize;

  private Database(
      Kind kind,
      Path file,
      String jdbcUrl,
      String user,
      String password,
      String schema,
      int poolSize) {
    this.kind = kind;
    this.file = file;
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.schema = schema;
    this.poolSize = poolSize;
  }

  /**
   * An SQLite database file (created only when the store is opened with {@link OpenMode#CREATE}).
   */
  public static Database sqlite(Path file) {
    Objects.requireNonNull(file, "file");
    return new Database(Kind.SQLITE, file.toAbsolutePath().normalize(), null, null, null, null, 0);
  }

  /**
   * A PostgreSQL database, reached at {@code jdbcUrl} ({@code jdbc:postgresql://host:port/db}) as
   * {@code user}, in schema {@value #DEFAULT_SCHEMA} with a pool of up to {@value
   * #DEFAULT_POOL_SIZE} connections. {@code password} may be null (trust or peer authentication, or
   * a password file the driver reads).
   */
  public static Database postgres(String jdbcUrl, String user, String password) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("a PostgreSQL JDBC URL starts with jdbc:postgresql:");
    }
    if (user.isBlank()) {
      throw new IllegalArgumentException("user must not be blank");
    }
    return new Database(
        Kind.POSTGRES, null, jdbcUrl, user, password, DEFAULT_SCHEMA, DEFAULT_POOL_SIZE);
  }

  /**
   * The same PostgreSQL database, store tables in {@code schema} (lower-case letters, digits and
   * underscores, at most 63, not starting with a digit).
   */
  public Database withSchema(String schema) {
    requirePostgres();
    Objects.requireNonNull(schema, "schema");
    if (!IDENTIFIER.matcher(schema).matches()) {
      throw new IllegalArgumentException(
          "schema must match " + IDENTIFIER.pattern() + ": '" + schema + "'");
    }
    return new Database(kind, file, jdbcUrl, user, password, schema, poolSize);
  }

  /**
   * The same PostgreSQL database with a pool of up to {@code n} connections. Every run a worker
   * drives borrows one only for the length of one transaction, so a pool much smaller than the
   * number of runs serves them; concurrent commits on separate connections let PostgreSQL flush
   * their WAL together.
   */
  public Database withPoolSize(int n) {
    requirePostgres();
    if (n < 1 || n > MAX_POOL_SIZE) {
      throw new IllegalArgumentException("pool size must be between 1 and " + MAX_POOL_SIZE);
    }
    return new Database(kind, file, jdbcUrl, user, password, schema, n);
  }

  /** The same PostgreSQL database and schema, reached as another role. */
  public Database as(String otherUser, String otherPassword) {
    requirePostgres();
    return postgres(jdbcUrl, otherUser, otherPassword).withSchema(schema).withPoolSize(poolSize);
  }

  public Kind kind() {
    return kind;
  }

  /** The database file of an SQLite database. */
  public Path file() {
    requireKind(Kind.SQLITE);
    return file;
  }

  /** The JDBC URL of a PostgreSQL database. */
  public String jdbcUrl() {
    requirePostgres();
    return jdbcUrl;
  }

  /** The role a PostgreSQL store connects as. */
  public String user() {
    requirePostgres();
    return user;
  }

  /** The password given for {@link #user}, or null; never printed. */
  public String password() {
    requirePostgres();
    return password;
  }

  /** The schema of a PostgreSQL store. */
  public String schema() {
    requirePostgres();
    return schema;
  }

  /** The most connections a PostgreSQL store keeps. */
  public int poolSize() {
    requirePostgres();
    return poolSize;
  }

  private void requirePostgres() {
    requireKind(Kind.POSTGRES);
  }

  private void requireKind(Kind k) {
    if (kind != k) {
      throw new IllegalStateException("not a " + k + " database: " + this);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Database d
        && d.kind == kind
        && Objects.equals(d.file, file)
        && Objects.equals(d.jdbcUrl, jdbcUrl)
        && Objects.equals(d.user, user)
        && Objects.equals(d.password, password)
        && Objects.equals(d.schema, schema)
        && d.poolSize == poolSize;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, file, jdbcUrl, user, schema, poolSize);
  }

  @Override
  public String toString() {
    if (kind == Kind.SQLITE) {
      return "sqlite:" + file;
    }
    int query = jdbcUrl.indexOf('?');
    String where = query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
    return Passwords.redact(where.substring("jdbc:".length()))
        + " schema "
        + schema
        + " as "
        + user;
  }
}
