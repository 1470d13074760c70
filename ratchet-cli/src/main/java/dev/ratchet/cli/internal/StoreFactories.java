package dev.ratchet.cli.internal;

import dev.ratchet.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The production {@link StoreFactory}: SQLite files (PostgreSQL arrives with its dialect). */
public final class StoreFactories {
  private StoreFactories() {}

  public static StoreFactory standard() {
    return (content, mark, mode, clock, seam) -> {
      refusePostgres(content, "--store");
      if (mark != null) {
        refusePostgres(mark, "--mark-store");
      }
      boolean create = mode == StoreFactory.Mode.CREATE;
      if (create) {
        parents(content.file());
        if (mark != null) {
          parents(mark.file());
        }
      }
      StoreOptions options =
          StoreOptions.defaults(clock)
              .withOpenMode(create ? OpenMode.CREATE : OpenMode.MUST_EXIST)
              .withCrashSeam(seam);
      JdbcStore store =
          mark == null
              ? JdbcStore.open(Database.sqlite(content.file()), options)
              : JdbcStore.split(
                  Database.sqlite(mark.file()), Database.sqlite(content.file()), options);
      return new Stores(store, store, store::close);
    };
  }

  static void refusePostgres(StoreSpec spec, String option) {
    if (spec.kind() == StoreSpec.Kind.POSTGRESQL) {
      throw RatchetException.contract(
          option
              + ": the PostgreSQL store is not available in this version (its dialect is not"
              + " built yet): use sqlite:PATH");
    }
  }

  private static void parents(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw RatchetException.contract(
          "store directory " + dir + ": cannot be created (" + e.getClass().getSimpleName() + ")");
    }
  }
}
