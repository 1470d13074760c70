package dev.ratchet.jdbc;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a store lives. Only SQLite exists today; the PostgreSQL issue adds its own factory, and the
 * dialect seam in {@code internal} picks the SQL for each kind.
 */
public final class Database {
  /** The database engines the store speaks. */
  public enum Kind {
    SQLITE
  }

  private final Kind kind;
  private final Path file;

  private Database(Kind kind, Path file) {
    this.kind = kind;
    this.file = file;
  }

  /**
   * An SQLite database file (created only when the store is opened with {@link OpenMode#CREATE}).
   */
  public static Database sqlite(Path file) {
    Objects.requireNonNull(file, "file");
    return new Database(Kind.SQLITE, file.toAbsolutePath().normalize());
  }

  public Kind kind() {
    return kind;
  }

  /** The database file of an SQLite database. */
  public Path file() {
    return file;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Database d && d.kind == kind && d.file.equals(file);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, file);
  }

  @Override
  public String toString() {
    return "sqlite:" + file;
  }
}
