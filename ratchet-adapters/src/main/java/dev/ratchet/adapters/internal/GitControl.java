package dev.ratchet.adapters.internal;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.TreeMap;

/**
 * The control structures of a workspace repository, read as data by Java alone before any git
 * process sees them (SPEC D29): whether {@code .git} is a plain directory that keeps git inside the
 * workspace, and a digest of every file in it that could change what git does or shows (the
 * configuration, hooks, {@code info/attributes} and {@code info/exclude}). The digest is part of
 * the state fingerprint, so a configuration, hook or attribute that changes during a run is drift.
 *
 * <p>Refused as drift, never followed: a {@code .git} that is a file ({@code gitdir:}) or a
 * symlink; a {@code commondir} file; object alternates; a symlink among the entries git reads.
 */
public final class GitControl {
  /** Entries of {@code .git} that must not be symlinks (a link would lead git elsewhere). */
  private static final List<String> NO_LINKS =
      List.of("config", "HEAD", "index", "objects", "refs", "packed-refs", "info", "hooks", "logs");

  /** Files whose presence redirects git outside the repository. */
  private static final List<String> REDIRECTS =
      List.of("commondir", "gitdir", "objects/info/alternates", "objects/info/http-alternates");

  private static final List<String> DIGESTED = List.of("config", "info/attributes", "info/exclude");

  private static final long MAX_FILE = 1 << 20;
  private static final int MAX_HOOKS = 256;

  /**
   * What was found.
   *
   * @param refusal why the repository is refused as drift, or null
   * @param digest SHA-256 over the control files (null when refused)
   */
  public record Inspection(String refusal, String digest) {
    public boolean refused() {
      return refusal != null;
    }
  }

  private GitControl() {}

  /** Inspects {@code root/.git}; the caller has established that it exists. */
  public static Inspection inspect(Path root) {
    Path dotGit = root.resolve(".git");
    try {
      BasicFileAttributes a =
          Files.readAttributes(dotGit, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (a.isSymbolicLink()) {
        return refused(".git is a symlink; a repository must live inside the workspace");
      }
      if (a.isRegularFile()) {
        return refused(".git is a file (a gitdir: redirect); it is not followed");
      }
      if (!a.isDirectory()) {
        return refused(".git is neither a directory nor a file");
      }
      for (String name : NO_LINKS) {
        if (Files.isSymbolicLink(dotGit.resolve(name))) {
          return refused(".git/" + name + " is a symlink; it is not followed");
        }
      }
      for (String name : REDIRECTS) {
        if (Files.exists(dotGit.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
          return refused(".git/" + name + " would point git outside the workspace; not followed");
        }
      }
      return new Inspection(null, digest(dotGit));
    } catch (java.nio.file.NoSuchFileException e) {
      return refused(".git vanished while it was read");
    } catch (IOException e) {
      return refused(".git cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static Inspection refused(String why) {
    return new Inspection(why, null);
  }

  private static String digest(Path dotGit) throws IOException {
    JsonObject.Builder files = JsonObject.builder();
    for (String name : DIGESTED) {
      files.put(name, fileDigest(dotGit.resolve(name)));
    }
    TreeMap<String, String> hooks = new TreeMap<>();
    Path hookDir = dotGit.resolve("hooks");
    if (Files.isDirectory(hookDir, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> s = Files.newDirectoryStream(hookDir)) {
        for (Path h : s) {
          if (hooks.size() >= MAX_HOOKS) {
            throw new IOException("more than " + MAX_HOOKS + " hooks");
          }
          hooks.put(h.getFileName().toString(), fileDigest(h));
        }
      }
    }
    JsonObject.Builder hookJson = JsonObject.builder();
    hooks.forEach(hookJson::put);
    return Canonical.sha256Hex(
        JsonObject.builder().put("files", files.build()).put("hooks", hookJson.build()).build());
  }

  /** The digest of one control file, "absent", or its kind when it is not a regular file. */
  private static String fileDigest(Path p) throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      return "absent";
    }
    if (a.isSymbolicLink()) {
      return "symlink:" + Digests.ofText(Files.readSymbolicLink(p).toString());
    }
    if (!a.isRegularFile()) {
      return a.isDirectory() ? "directory" : "other";
    }
    if (a.size() > MAX_FILE) {
      throw new IOException(p.getFileName() + " is larger than " + MAX_FILE + " bytes");
    }
    return Digests.ofFile(p);
  }
}
