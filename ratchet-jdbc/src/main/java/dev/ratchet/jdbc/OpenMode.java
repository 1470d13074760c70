package dev.ratchet.jdbc;

/** What opening a store may do when the database is absent or uninitialised. */
public enum OpenMode {
  /**
   * The store must already exist and be initialised; nothing is ever created. This is the default
   * because {@code resume} on a mistyped path must fail closed, not start an empty history.
   */
  MUST_EXIST,
  /** Create the database file and apply the schema when they are missing. */
  CREATE,
  /**
   * As {@link #MUST_EXIST}, for readers that must not write (the console, D26): SQLite connections
   * are opened read-only, and a store whose schema is older than this build is refused rather than
   * migrated. Every write through such a store fails in the database.
   */
  READ_ONLY
}
