package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The production {@link StoreFactory}: SQLite files and PostgreSQL, single or split. */
public final class StoreFactories {
  private StoreFactories() {}

  public static StoreFactory standard() {
    return (content, mark, mode, clock, seam, concurrentRuns) -> {
      // A role login (worker, operator, inspector) can never migrate: only `db init` creates.
      boolean create = mode == StoreFactory.Mode.CREATE && content.user() == null;
      if (create) {
        parents(content);
        if (mark != null) {
          parents(mark);
        }
      }
      if (!create) {
        mustExist(content);
        if (mark != null) {
          mustExist(mark);
        }
      }
      Database contentDb = database(content);
      Database markDb = mark == null ? contentDb : database(mark);
      StoreOptions options =
          StoreOptions.defaults(clock)
              .withOpenMode(
                  create
                      ? OpenMode.CREATE
                      : mode == StoreFactory.Mode.READ_ONLY
                          ? OpenMode.READ_ONLY
                          : OpenMode.MUST_EXIST)
              .withCrashSeam(seam)
              .withGroupCommitFor(markDb, concurrentRuns);
      JdbcStore store =
          mark == null
              ? JdbcStore.open(contentDb, options)
              : JdbcStore.split(markDb, contentDb, options);
      return new Stores(store, store, store::close);
    };
  }

  /**
   * The database a spec names. PostgreSQL credentials come from the environment, never from the
   * command line (where {@code ps} would show them): {@code RATCHET_PG_USER} (default: the OS
   * user), {@code RATCHET_PG_PASSWORD} (default: none) and {@code RATCHET_PG_SCHEMA} (default:
   * {@code ratchet}). A spec carrying a role user ({@link PgRole}) connects as that user, with the
   * password in {@code RATCHET_PG_<ROLE>_PASSWORD}.
   */
  public static Database database(StoreSpec spec) {
    if (spec.kind() == StoreSpec.Kind.SQLITE) {
      return Database.sqlite(spec.file());
    }
    Database db =
        spec.user() != null
            ? Database.postgres(spec.url(), spec.user(), System.getenv(spec.role().passwordEnv()))
            : Database.postgres(
                spec.url(),
                System.getenv().getOrDefault("RATCHET_PG_USER", System.getProperty("user.name")),
                System.getenv("RATCHET_PG_PASSWORD"));
    String schema = System.getenv("RATCHET_PG_SCHEMA");
    return schema == null || schema.isBlank() ? db : db.withSchema(schema);
  }

  /** A missing SQLite file, said in the command line's words (nothing is created). */
  private static void mustExist(StoreSpec spec) {
    if (spec.kind() == StoreSpec.Kind.SQLITE && !Files.isRegularFile(spec.file())) {
      throw new RatchetException(
          dev.ratchet.error.ErrorCode.STORE_UNAVAILABLE,
          "no Ratchet store at "
              + spec.file()
              + " (nothing was created): 'ratchet run' or 'ratchet submit' creates it, or name"
              + " another with --store or RATCHET_STORE");
    }
  }

  private static void parents(StoreSpec spec) {
    if (spec.kind() != StoreSpec.Kind.SQLITE) {
      return;
    }
    Path dir = spec.file().toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir, Home.PRIVATE_DIRECTORY);
    } catch (IOException e) {
      throw RatchetException.contract(
          "store directory " + dir + ": cannot be created (" + e.getClass().getSimpleName() + ")");
    }
  }
}
