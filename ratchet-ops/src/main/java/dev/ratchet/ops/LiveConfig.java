package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A long-lived process's {@code ratchet.properties}, re-read while it runs (issue 39): each {@link
 * #check} (before each claim, tool call or console request) looks at the file's size, modification
 * time and identity, and reads and digests it only when they moved (or when it was modified too
 * recently for them to be trusted); a file whose content is unchanged changes nothing. A changed
 * file is parsed whole first: a malformed one is refused, logged with the key and the rule, and the
 * configuration in force stays. Otherwise the keys live in this process ({@code live}) take their
 * new values, logged with them; the keys that choose what the process is connected to ({@link
 * Configuration#RESTART}) keep the values it started with, logged by name only as needing a restart
 * (their values are never logged); any other key is not used by this process.
 */
public final class LiveConfig {
  /** File times are coarse on some file systems: a file this recent is re-read to be sure. */
  static final long RACY_MS = 2_000;

  private static final String FILE_NAME = Configuration.FILE;

  private final Path file;
  private final Set<String> live;
  private final Consumer<String> log;
  private final InstantSource clock;
  private Configuration inForce;
  private Stamp seen;
  private byte[] seenDigest;

  /**
   * Watches {@code started}'s file; {@code live} names the keys this process applies while it runs
   * (a subset of {@link Configuration#LIVE}), {@code log} gets one line per change; {@code clock}
   * (the services' wall clock: file times are wall-clock times) tells a recent file.
   */
  public LiveConfig(
      Configuration started, Set<String> live, Consumer<String> log, InstantSource clock) {
    this.inForce = Objects.requireNonNull(started, "started");
    this.file = started.file();
    this.live = Set.copyOf(live);
    if (!Configuration.LIVE.containsAll(this.live)) {
      throw new IllegalArgumentException("not live keys: " + live);
    }
    this.log = log;
    this.clock = clock;
    // Nothing seen yet: the first check reads the file and compares values with what started.
    this.seen = null;
    this.seenDigest = new byte[0];
  }

  /** The configuration in force now. */
  public synchronized Configuration inForce() {
    return inForce;
  }

  /** Looks at the file; the configuration in force after any change it applied. */
  public synchronized Configuration check() {
    Stamp now = stamp();
    boolean racy = now.exists() && clock.millis() - now.modifiedMillis() < RACY_MS;
    if (now.equals(seen) && !racy) {
      return inForce;
    }
    byte[] content;
    try {
      content = now.exists() ? Files.readAllBytes(file) : new byte[0];
    } catch (NoSuchFileException e) {
      content = new byte[0];
    } catch (IOException e) {
      if (!now.equals(seen)) {
        log.accept(
            file + ": not readable (" + e.getMessage() + "); the configuration in force stays");
      }
      seen = now;
      return inForce;
    }
    byte[] d = digest(content);
    seen = now;
    if (MessageDigest.isEqual(d, seenDigest)) {
      return inForce; // touched, or re-read only because it was recent: same content
    }
    seenDigest = d;
    Configuration next;
    try {
      next =
          content.length == 0
              ? new Configuration(file, Map.of())
              : Configuration.parse(file, content);
      next.validateStores();
    } catch (RatchetException e) {
      log.accept(
          FILE_NAME
              + " changed but is refused: "
              + e.getMessage()
              + "; the configuration in force stays");
      return inForce;
    }
    apply(next);
    return inForce;
  }

  private void apply(Configuration next) {
    Set<String> changed = new TreeSet<>(inForce.values().keySet());
    changed.addAll(next.values().keySet());
    changed.removeIf(k -> Objects.equals(inForce.values().get(k), next.values().get(k)));
    if (changed.isEmpty()) {
      return;
    }
    Map<String, String> merged = new TreeMap<>(next.values());
    List<String> applied = new ArrayList<>();
    List<String> restart = new ArrayList<>();
    List<String> unused = new ArrayList<>();
    for (String k : changed) {
      if (live.contains(k)) {
        applied.add(k + " = " + next.get(k).orElse("(unset: the default)"));
      } else if (Configuration.RESTART.contains(k)) {
        restart.add(k);
        String old = inForce.values().get(k);
        if (old == null) {
          merged.remove(k);
        } else {
          merged.put(k, old);
        }
      } else {
        unused.add(k);
      }
    }
    inForce = new Configuration(file, merged);
    List<String> parts = new ArrayList<>();
    if (!applied.isEmpty()) {
      parts.add("applied " + String.join(", ", applied));
    }
    if (!restart.isEmpty()) {
      parts.add(
          String.join(", ", restart)
              + " changed: takes effect only after a restart (the value this process started"
              + " with stays in force)");
    }
    if (!unused.isEmpty()) {
      parts.add(String.join(", ", unused) + " changed: not used by this process");
    }
    log.accept(FILE_NAME + " changed: " + String.join("; ", parts));
  }

  /** Size, modification time and identity: what changes when the file is written or replaced. */
  private record Stamp(boolean exists, long size, long modifiedMillis, Object key) {}

  private Stamp stamp() {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new Stamp(true, a.size(), a.lastModifiedTime().toMillis(), a.fileKey());
    } catch (IOException e) {
      return new Stamp(false, -1, -1, null);
    }
  }

  private static byte[] digest(byte[] content) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
