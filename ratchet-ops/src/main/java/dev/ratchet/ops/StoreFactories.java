package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Cluster;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.ShardedStore;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.seam.CrashSeam;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

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
      if (content.members().size() > 1) {
        return clusters(content, mark, options(create, mode, seam, clock));
      }
      Database contentDb = database(content);
      Database markDb = mark == null ? contentDb : database(mark);
      StoreOptions options =
          options(create, mode, seam, clock).withGroupCommitFor(markDb, concurrentRuns);
      JdbcStore store =
          mark == null
              ? JdbcStore.open(contentDb, options)
              : JdbcStore.split(markDb, contentDb, options);
      return new Stores(store, store, store::close);
    };
  }

  private static StoreOptions options(
      boolean create, StoreFactory.Mode mode, CrashSeam seam, InstantSource clock) {
    return StoreOptions.defaults(clock)
        .withOpenMode(
            create
                ? OpenMode.CREATE
                : mode == StoreFactory.Mode.READ_ONLY ? OpenMode.READ_ONLY : OpenMode.MUST_EXIST)
        .withCrashSeam(seam);
  }

  /** Issue 44: one store over several PostgreSQL clusters (ADR 0140). */
  private static Stores clusters(StoreSpec content, StoreSpec mark, StoreOptions options) {
    if (mark != null) {
      throw RatchetException.contract(
          "--mark-store: a store spread over clusters keeps each run's marks in its own cluster;"
              + " it takes no separate mark store");
    }
    List<Cluster> clusters = new ArrayList<>();
    for (StoreSpec.Member m : content.members()) {
      clusters.add(new Cluster(m.cluster(), database(m.spec())));
    }
    ShardedStore store = ShardedStore.open(clusters, options);
    return new Stores(store, store, store::close);
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
