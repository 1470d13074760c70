package dev.ratchet.adapters.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The few read-only questions the workspace asks git, each as an argv through {@link
 * BoundedProcess} (never a shell). {@code GIT_OPTIONAL_LOCKS=0} keeps {@code git status} from
 * rewriting the index, so observing never changes what it observes.
 */
public final class Git {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final int MAX_OUTPUT = 64 << 20;
  private static final Map<String, String> ENV = Map.of("GIT_OPTIONAL_LOCKS", "0", "LC_ALL", "C");

  private final Path root;

  public Git(Path root) {
    this.root = root;
  }

  /** True when the workspace root itself is a git work tree (it has a {@code .git} entry). */
  public static boolean isRepository(Path root) {
    return Files.exists(root.resolve(".git"), LinkOption.NOFOLLOW_LINKS);
  }

  /** The HEAD commit id, or null on an unborn branch. */
  public String head() {
    BoundedProcess.Outcome o = git(List.of("rev-parse", "--verify", "-q", "HEAD"), 0, 1);
    return o.exitCode() == 0 ? o.stdout().trim() : null;
  }

  /** The raw {@code status --porcelain -z} output: empty exactly when the tree is clean. */
  public String status() {
    return git(
            List.of(
                "status",
                "--porcelain=v1",
                "-z",
                "--untracked-files=all",
                "--ignore-submodules=none"),
            0)
        .stdout();
  }

  /** Tracked files plus untracked files that are not ignored, as relative POSIX paths. */
  public List<String> visibleFiles() {
    String out =
        git(List.of("ls-files", "-z", "--cached", "--others", "--exclude-standard"), 0).stdout();
    List<String> paths = new ArrayList<>();
    for (String p : out.split("\0")) {
      if (!p.isEmpty()) {
        paths.add(p);
      }
    }
    return paths;
  }

  /** True when git ignores {@code path} and does not track it. */
  public boolean ignored(String path) {
    return git(List.of("check-ignore", "-q", "--", path), 0, 1).exitCode() == 0;
  }

  private BoundedProcess.Outcome git(List<String> args, int... okCodes) {
    List<String> argv = new ArrayList<>(List.of("git", "-C", root.toString()));
    argv.addAll(args);
    BoundedProcess.Outcome o;
    try {
      o = BoundedProcess.run(argv, root, ENV, TIMEOUT, MAX_OUTPUT);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot run git: " + e.getMessage(), e);
    }
    for (int ok : okCodes) {
      if (!o.timedOut() && o.exitCode() == ok && !o.stdoutTruncated()) {
        return o;
      }
    }
    throw new RatchetException(
        ErrorCode.STORE_UNAVAILABLE,
        "workspace: git "
            + args.get(0)
            + " failed (exit "
            + o.exitCode()
            + "): "
            + o.stderr().strip());
  }
}
