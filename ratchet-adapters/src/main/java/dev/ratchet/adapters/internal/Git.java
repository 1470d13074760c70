package dev.ratchet.adapters.internal;

import dev.ratchet.adapters.CommandSandbox;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The few read-only questions the workspace asks git, each as an argv (never a shell) started by
 * {@link GitProcesses}: inside the sandbox, over a read-only workspace, with the repository's own
 * configuration not obeyed (SPEC D29). Every scan starts with {@link #open}: the control structures
 * are inspected by Java, the configuration judged, and only then does git read the work tree.
 */
public final class Git {
  private final Path root;
  private final Path scratch;
  private final GitProcesses processes;

  /**
   * @param scratch a directory outside the sandbox's view where the sanitised configuration is
   *     written (the adapter's own {@code tmp})
   * @param hidden paths inside the workspace git must not see (the control directory, the home)
   */
  public Git(Path root, Path scratch, CommandSandbox sandbox, List<Path> hidden) {
    this.root = root;
    this.scratch = scratch;
    this.processes = new GitProcesses(root, sandbox, hidden);
  }

  /** True when the workspace root itself holds a {@code .git} entry of any kind. */
  public static boolean isRepository(Path root) {
    return Files.exists(root.resolve(".git"), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * One scan's view of the repository: either refused (drift, with the reason) or a reader whose
   * questions git answers under the sanitised configuration.
   *
   * @param refusal why the repository is refused as drift, or null
   * @param controlDigest the digest of the control files (null when refused)
   * @param neutralised the repository's configuration keys that were not obeyed
   */
  public record View(
      String refusal, String controlDigest, List<String> neutralised, Reader reader) {
    public View {
      neutralised = List.copyOf(neutralised);
    }

    static View refused(String why) {
      return new View(why, null, List.of(), null);
    }
  }

  /** Inspects the control structures and the configuration; runs git only over what passes. */
  public View open() {
    GitControl.Inspection control = GitControl.inspect(root);
    if (control.refused()) {
      return View.refused(control.refusal());
    }
    Path configFile = root.resolve(".git/config");
    GitConfigFilter.Verdict verdict = GitConfigFilter.judge("");
    if (Files.isRegularFile(configFile, LinkOption.NOFOLLOW_LINKS)) {
      verdict =
          GitConfigFilter.judge(
              call(
                      List.of(
                          "config",
                          "--file",
                          configFile.toString(),
                          "--no-includes",
                          "--list",
                          "-z"),
                      null,
                      0)
                  .stdout());
    }
    if (verdict.refusal() != null) {
      return View.refused(verdict.refusal());
    }
    Path sanitised = null;
    if (processes.sandboxed()) {
      sanitised = scratch.resolve("git-config");
      try {
        Files.writeString(sanitised, verdict.sanitisedText(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new RatchetException(
            ErrorCode.STORE_UNAVAILABLE,
            "workspace: cannot write the sanitised git configuration: " + e.getMessage(),
            e);
      }
    } else if (!verdict.obeyedWithoutSandbox().isEmpty()) {
      return View.refused(
          "the repository's configuration sets "
              + verdict.obeyedWithoutSandbox()
              + ", which git would obey outside the sandbox ("
              + CommandSandbox.OPT_OUT_VARIABLE
              + " is set); not run");
    }
    return new View(null, control.digest(), verdict.dropped(), new Reader(sanitised));
  }

  /** Questions asked under one scan's sanitised configuration. */
  public final class Reader {
    private final Path config;

    private Reader(Path config) {
      this.config = config;
    }

    /** The HEAD commit id, or null on an unborn branch. */
    public String head() {
      BoundedProcess.Outcome o = call(List.of("rev-parse", "--verify", "-q", "HEAD"), config, 0, 1);
      return o.exitCode() == 0 ? o.stdout().trim() : null;
    }

    /** The raw {@code status --porcelain -z} output: empty exactly when the tree is clean. */
    public String status() {
      return call(
              List.of(
                  "status",
                  "--porcelain=v1",
                  "-z",
                  "--untracked-files=all",
                  "--ignore-submodules=none"),
              config,
              0)
          .stdout();
    }

    /** Tracked files plus untracked files that are not ignored, as relative POSIX paths. */
    public List<String> visibleFiles() {
      String out =
          call(List.of("ls-files", "-z", "--cached", "--others", "--exclude-standard"), config, 0)
              .stdout();
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
      return call(List.of("check-ignore", "-q", "--", path), config, 0, 1).exitCode() == 0;
    }
  }

  private BoundedProcess.Outcome call(List<String> args, Path config, int... okCodes) {
    BoundedProcess.Outcome o = processes.run(args, config);
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
