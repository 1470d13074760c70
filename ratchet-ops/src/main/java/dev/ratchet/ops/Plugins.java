package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import java.util.ServiceLoader;
import java.util.function.Predicate;

/**
 * Finds what a build may or may not carry (the console server, the demos, the reference ledger)
 * with {@code ServiceLoader}, so no surface compiles against a harness or a server it only runs.
 */
public final class Plugins {
  private Plugins() {}

  /** The first provider of {@code type} that {@code which} accepts; {@code CONTRACT} otherwise. */
  public static <T> T find(Class<T> type, Predicate<T> which, String missing) {
    return ServiceLoader.load(type, Plugins.class.getClassLoader()).stream()
        .map(ServiceLoader.Provider::get)
        .filter(which)
        .findFirst()
        .orElseThrow(() -> RatchetException.contract(missing));
  }
}
