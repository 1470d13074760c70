package dev.ratchet.adapters.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.TreeMap;

/**
 * Computes a {@link TreeState}. In a git work tree the visible paths are git's (tracked plus
 * untracked-but-not-ignored), so build output that {@code .gitignore} hides is not state; elsewhere
 * every file outside the reserved and excluded top-level directories is. Symlinks are never
 * followed: a link is recorded by the digest of its target text.
 *
 * <p>Whether the workspace is a git work tree was fixed when its journal was created (D29): a
 * {@code .git} that appears later is drift and never switches git on; a repository whose control
 * structures are refused ({@link Git#open}) is drift too, and git does not run over it.
 */
public final class TreeScanner {
  private final Path root;
  private final Set<String> skippedTopLevel;
  private final Git git;

  /** {@code git} is null outside a git work tree. */
  public TreeScanner(Path root, Set<String> skippedTopLevel, Git git) {
    this.root = root;
    this.skippedTopLevel = Set.copyOf(skippedTopLevel);
    this.git = git;
  }

  public TreeState scan() {
    try {
      if (git == null) {
        return Git.isRepository(root)
            ? walk(
                "a .git appeared in a workspace that was not a git work tree when first opened;"
                    + " it is not read")
            : walk(null);
      }
      if (!Git.isRepository(root)) {
        return walk(".git vanished from a workspace that was a git work tree when first opened");
      }
      return fromGit();
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot scan the tree: " + e.getMessage(), e);
    }
  }

  private TreeState fromGit() throws IOException {
    Git.View view = git.open();
    if (view.refusal() != null) {
      return walk(view.refusal());
    }
    Git.Reader reader = view.reader();
    // HEAD and status first: a commit racing the scan then shows as drift, never as a clean match.
    String head = reader.head();
    String status = reader.status();
    TreeMap<String, String> entries = new TreeMap<>();
    for (String rel : reader.visibleFiles()) {
      if (skipped(rel)) {
        continue;
      }
      String e = entryOf(root.resolve(rel));
      if (e != null) {
        entries.put(rel, e);
      }
    }
    return new TreeState(
        entries,
        new TreeState.GitPart(head, status, view.controlDigest(), view.neutralised()),
        null);
  }

  /** Every file but the skipped ones, git never asked; {@code drift} says why, when it is drift. */
  private TreeState walk(String drift) throws IOException {
    TreeMap<String, String> entries = new TreeMap<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(root) && skipped(rel(dir))) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            String rel = rel(file);
            if (!skipped(rel)) {
              String e = entryOf(file);
              if (e != null) {
                entries.put(rel, e);
              }
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return new TreeState(entries, null, drift);
  }

  private boolean skipped(String rel) {
    int slash = rel.indexOf('/');
    String top = slash < 0 ? rel : rel.substring(0, slash);
    return skippedTopLevel.contains(top);
  }

  private String rel(Path p) {
    return root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
  }

  /** The entry of one path, or null when it vanished or is neither file, link nor directory. */
  static String entryOf(Path p) throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (a.isSymbolicLink()) {
      return "symlink:" + Digests.ofText(Files.readSymbolicLink(p).toString());
    }
    if (a.isDirectory()) {
      return "directory";
    }
    if (a.isRegularFile()) {
      try {
        return Digests.ofFile(p);
      } catch (NoSuchFileException e) {
        return null;
      }
    }
    return null;
  }
}
