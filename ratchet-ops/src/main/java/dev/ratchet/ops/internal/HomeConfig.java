package dev.ratchet.ops.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.Home;
import dev.ratchet.ops.PgRole;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator's defaults in {@code <home>/ratchet.properties} (issue 17, docs/cli.md
 * "Configuration"): {@code store} and {@code mark-store}. A flag beats the environment ({@code
 * RATCHET_STORE}, {@code RATCHET_MARK_STORE}), which beats this file, which beats the built-in
 * default. An unknown key is refused (exit 2) rather than silently ignored, so a typo never points
 * a command at the wrong store. The PostgreSQL role users ({@code pg.worker-user} etc., {@link
 * PgRole}) may be named here; credentials do not belong here: passwords stay in the environment.
 */
public final class HomeConfig {
  public static final String FILE = "ratchet.properties";
  public static final String STORE = "store";
  public static final String MARK_STORE = "mark-store";
  private static final Set<String> KEYS =
      Set.of(STORE, MARK_STORE, "pg.worker-user", "pg.operator-user", "pg.inspector-user");

  private final Path file;
  private final Properties values;

  private HomeConfig(Path file, Properties values) {
    this.file = file;
    this.values = values;
  }

  /** The home's file, or an empty configuration when there is none. */
  public static HomeConfig of(Home home) {
    Path f = home.dir().resolve(FILE);
    Properties p = new Properties();
    if (Files.isRegularFile(f)) {
      try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException | IllegalArgumentException e) {
        throw RatchetException.contract(f + ": not a readable properties file: " + e.getMessage());
      }
      Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
      unknown.removeAll(KEYS);
      if (!unknown.isEmpty()) {
        throw RatchetException.contract(
            f + ": unknown key(s) " + unknown + "; the known keys are " + new TreeSet<>(KEYS));
      }
    }
    return new HomeConfig(f, p);
  }

  /** The value of {@code key}, if the file sets it to something non-blank. */
  public Optional<String> get(String key) {
    String v = values.getProperty(key);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }

  /** How a message names {@code key}'s setting: {@code <file>: store}. */
  public String where(String key) {
    return file + ": " + key;
  }
}
