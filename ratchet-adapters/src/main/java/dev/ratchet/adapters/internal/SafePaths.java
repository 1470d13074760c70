package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.WorkspacePaths;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * Resolves a workspace path (reference-behaviour §1.3) to a location under the real root without
 * ever passing through a symlink: every existing component is examined with {@code NOFOLLOW_LINKS},
 * a link anywhere on the way is refused, and the parent's real path is checked to lie under the
 * root as a second line of defence. Reserved top-level names (the control directory, {@code .git})
 * and temp names are refused too.
 */
public final class SafePaths {
  private final Path root;
  private final Set<String> reserved;

  /** {@code realRoot} must already be a real path ({@link Path#toRealPath}). */
  public SafePaths(Path realRoot, Set<String> reservedTopLevel) {
    this.root = realRoot;
    this.reserved = Set.copyOf(reservedTopLevel);
  }

  /** A checked location: its absolute path, and whether the target exists now. */
  public record Resolved(String relative, Path path, boolean exists, Path firstMissingParent) {}

  /**
   * Checks {@code rel} and returns where it lives. Missing parent directories are allowed (a write
   * creates them); the caller decides what absence means.
   */
  public Resolved resolve(String field, String rel) {
    WorkspacePaths.require(field, rel);
    String[] segs = rel.split("/");
    if (reserved.contains(segs[0])) {
      throw new RatchetException(
          ErrorCode.PERMISSION, field + ": '" + segs[0] + "' is reserved and never writable");
    }
    Path cur = root;
    Path firstMissing = null;
    try {
      for (int i = 0; i < segs.length - 1; i++) {
        cur = cur.resolve(segs[i]);
        if (firstMissing != null) {
          continue;
        }
        BasicFileAttributes a = attrs(cur);
        if (a == null) {
          firstMissing = cur;
        } else if (a.isSymbolicLink()) {
          throw symlink(field, rel);
        } else if (!a.isDirectory()) {
          throw RatchetException.contract(field + ": '" + segs[i] + "' is not a directory");
        }
      }
      Path target = cur.resolve(segs[segs.length - 1]);
      if (firstMissing == null && !cur.toRealPath().equals(cur)) {
        // Something moved under us between the checks: refuse rather than guess.
        throw symlink(field, rel);
      }
      BasicFileAttributes a = firstMissing == null ? attrs(target) : null;
      if (a != null && a.isSymbolicLink()) {
        throw symlink(field, rel);
      }
      if (a != null && !a.isRegularFile()) {
        throw RatchetException.contract(field + ": '" + rel + "' is not a regular file");
      }
      return new Resolved(rel, target, a != null, firstMissing);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          field + ": cannot inspect '" + rel + "': " + e.getMessage(),
          e);
    }
  }

  private static RatchetException symlink(String field, String rel) {
    return new RatchetException(
        ErrorCode.PERMISSION, field + ": '" + rel + "' passes through a symlink; refused");
  }

  private static BasicFileAttributes attrs(Path p) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }
}
