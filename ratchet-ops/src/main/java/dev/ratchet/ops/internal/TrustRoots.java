package dev.ratchet.ops.internal;

import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Settings;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A home's three trust roots (approvers, reviewers, operators), re-readable while a process runs
 * (issue 39: a long-lived worker notices keys trusted after it started).
 */
public final class TrustRoots {
  private final Settings settings;
  private final java.time.InstantSource clock;
  private volatile TrustRoot approvers;
  private volatile TrustRoot reviewers;
  private volatile TrustRoot operators;

  /** The trust directories' listing when the roots were last (re)loaded; empty: never checked. */
  private String listing = "";

  /** The three directories' own stamps when they were last listed; null: list next time. */
  private String dirStamps;

  /** When they were last listed (by the services' clock: file times are wall-clock times). */
  private long listedAt;

  /**
   * Listing each directory's files on every check is what made a check cost O(files) (issue 39
   * review): a directory's own modification time moves when a file is added, removed or renamed
   * into it (how {@code keys trust} writes), so only that is looked at, except that a listing older
   * than this is redone anyway, to notice a key file rewritten in place.
   */
  static final long RELIST_MS = 5_000;

  /** Directory times are coarse on some file systems: one this recent does not prove no change. */
  static final long RACY_MS = 2_000;

  private TrustRoots(Settings settings, java.time.InstantSource clock) {
    this.settings = settings;
    this.clock = clock;
    this.approvers = KeyConfig.approvers(settings.approversDir());
    this.reviewers = KeyConfig.reviewers(settings.reviewersDir());
    this.operators = KeyConfig.trustRoot(settings, Role.OPERATOR);
  }

  /** Loads the roots the settings name (a bad key: refused before any store is opened). */
  public static TrustRoots load(Settings settings, java.time.InstantSource clock) {
    return new TrustRoots(settings, clock);
  }

  public TrustRoot approvers() {
    return approvers;
  }

  public TrustRoot reviewers() {
    return reviewers;
  }

  public TrustRoot operators() {
    return operators;
  }

  /** Re-reads the roots; what changed, or null when nothing did. */
  public synchronized String reload() {
    // Before each claim and each tool call: three stats unless a trust directory changed.
    long wall = clock.millis(); // file times are wall-clock times
    DirStamps stamps = dirStamps();
    if (stamps.text().equals(dirStamps) && wall - listedAt < RELIST_MS) {
      return null;
    }
    // A directory modified within RACY_MS of this listing may change again unseen by its time.
    dirStamps = stamps.newest() < wall - RACY_MS ? stamps.text() : null;
    listedAt = wall;
    String now = listing();
    if (now.equals(listing)) {
      return null;
    }
    listing = now;
    TrustRoot a = KeyConfig.approvers(settings.approversDir());
    TrustRoot r = KeyConfig.reviewers(settings.reviewersDir());
    TrustRoot o = KeyConfig.trustRoot(settings, Role.OPERATOR);
    List<String> changed = new ArrayList<>();
    if (!a.toString().equals(approvers.toString())) {
      changed.add(a.toString());
    }
    if (!r.toString().equals(reviewers.toString())) {
      changed.add(r.toString());
    }
    if (!o.toString().equals(operators.toString())) {
      changed.add(o.toString());
    }
    approvers = a;
    reviewers = r;
    operators = o;
    return changed.isEmpty() ? null : String.join(", ", changed);
  }

  /** The trust directories' own modification times and identities, and the newest time. */
  private record DirStamps(String text, long newest) {}

  private DirStamps dirStamps() {
    StringBuilder b = new StringBuilder();
    long newest = 0;
    for (Role role : Role.values()) {
      Path dir = settings.trustDir(role);
      try {
        BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class);
        long modified = a.lastModifiedTime().toMillis();
        newest = Math.max(newest, modified);
        b.append(dir).append(' ').append(modified).append(' ').append(a.fileKey()).append('\n');
      } catch (IOException e) {
        b.append(dir).append(" missing\n");
      }
    }
    return new DirStamps(b.toString(), newest);
  }

  /** Every file of the three trust directories with its size and modification time. */
  private String listing() {
    StringBuilder b = new StringBuilder();
    for (Role role : Role.values()) {
      Path dir = settings.trustDir(role);
      b.append(dir).append('\n');
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.sorted().toList()) {
          BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
          b.append(f.getFileName())
              .append(' ')
              .append(a.size())
              .append(' ')
              .append(a.lastModifiedTime().toMillis())
              .append('\n');
        }
      } catch (IOException e) {
        b.append("unreadable\n"); // a missing directory: the roots say what that means
      }
    }
    return b.toString();
  }
}
