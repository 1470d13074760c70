package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The operator's defaults in {@code <home>/ratchet.properties} (issue 17, docs/cli.md
 * "Configuration"), as read once: {@code store}, {@code mark-store}, the PostgreSQL role users
 * ({@code pg.worker-user} etc., {@link PgRole}) and {@code worker.poll}. A flag beats the
 * environment, which beats this file, which beats the built-in default. An unknown key is refused
 * (exit 2) rather than silently ignored, so a typo never points a command at the wrong store.
 * Credentials do not belong here: passwords stay in the environment.
 *
 * <p>A long-lived process keeps the configuration it started with and re-reads the file through
 * {@link LiveConfig} (issue 39): only the {@link #LIVE} keys change while it runs.
 *
 * @param file where the values came from (messages name it)
 * @param values the non-blank values, by key
 */
public record Configuration(Path file, Map<String, String> values) {
  public static final String FILE = "ratchet.properties";
  public static final String STORE = "store";
  public static final String MARK_STORE = "mark-store";

  /** A worker's idle poll interval when {@code --poll} is not given (live). */
  public static final String WORKER_POLL = "worker.poll";

  /** Keys a running process applies without a restart (issue 39). */
  public static final Set<String> LIVE = Set.of(WORKER_POLL);

  /** Keys a running process keeps as it started with: they choose what it is connected to. */
  public static final Set<String> RESTART =
      Set.of(STORE, MARK_STORE, "pg.worker-user", "pg.operator-user", "pg.inspector-user");

  /** The longest {@code worker.poll}: a worker notices a new file at its next claim attempt. */
  public static final Duration MAX_POLL = Duration.ofMinutes(10);

  public Configuration {
    java.util.Objects.requireNonNull(file, "file");
    values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /** The home's file, or an empty configuration when there is none; refused when malformed. */
  public static Configuration read(Home home) {
    Path f = home.dir().resolve(FILE);
    if (!Files.isRegularFile(f)) {
      return new Configuration(f, Map.of());
    }
    try {
      return parse(f, Files.readAllBytes(f));
    } catch (IOException e) {
      throw RatchetException.contract(f + ": not a readable properties file: " + e.getMessage());
    }
  }

  /**
   * The configuration in {@code content} (the bytes of {@code file}): refused ({@code CONTRACT},
   * naming the file, the key and the rule) for an unknown key or a bad {@code worker.poll}.
   */
  public static Configuration parse(Path file, byte[] content) {
    Properties p = new Properties();
    try (Reader r =
        new InputStreamReader(new ByteArrayInputStream(content), StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      throw RatchetException.contract(file + ": not a readable properties file: " + e.getMessage());
    }
    Set<String> known = new TreeSet<>(RESTART);
    known.addAll(LIVE);
    Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw RatchetException.contract(
          file + ": unknown key(s) " + unknown + "; the known keys are " + known);
    }
    Map<String, String> values = new TreeMap<>();
    for (String k : p.stringPropertyNames()) {
      String v = p.getProperty(k);
      if (v != null && !v.isBlank()) {
        values.put(k, v.strip());
      }
    }
    Configuration c = new Configuration(file, values);
    c.workerPoll(); // a bad value is refused when the file is read, not at first use
    return c;
  }

  /** Refuses a {@code store} or {@code mark-store} that is not a store spec, naming where. */
  public void validateStores() {
    for (String k : List.of(STORE, MARK_STORE)) {
      get(k).ifPresent(v -> StoreSpec.parse(where(k), v));
    }
  }

  /** The value of {@code key}, if the file sets it to something non-blank. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /** How a message names {@code key}'s setting: {@code <file>: store}. */
  public String where(String key) {
    return file + ": " + key;
  }

  /** {@code worker.poll}, if set: {@code 250ms}, {@code 2s} ... from 1 ms to {@link #MAX_POLL}. */
  public Optional<Duration> workerPoll() {
    Optional<String> v = get(WORKER_POLL);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String where = where(WORKER_POLL);
    Duration d;
    try {
      d = WorkerProcess.duration(where, v.get());
    } catch (RatchetException e) {
      throw RatchetException.contract(
          where + ": '" + v.get() + "' is not a duration like 250ms, 2s or 1m");
    }
    if (d.isZero() || d.compareTo(MAX_POLL) > 0) {
      throw RatchetException.contract(
          where + ": must be from 1ms to " + MAX_POLL.toMinutes() + "m");
    }
    return Optional.of(d);
  }
}
