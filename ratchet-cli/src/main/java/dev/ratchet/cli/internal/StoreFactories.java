package dev.ratchet.cli.internal;

import dev.ratchet.ErrorCode;
import dev.ratchet.RatchetException;

/** The production {@link StoreFactory}: SQLite files (PostgreSQL arrives with its dialect). */
public final class StoreFactories {
  private StoreFactories() {}

  public static StoreFactory standard() {
    return (content, mark, mode, clock, seam) -> {
      refusePostgres(content, "--store");
      if (mark != null) {
        refusePostgres(mark, "--mark-store");
      }
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "the SQLite store is not part of this build yet: " + content);
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
}
