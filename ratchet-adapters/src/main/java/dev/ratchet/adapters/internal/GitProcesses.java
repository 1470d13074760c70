package dev.ratchet.adapters.internal;

import dev.ratchet.adapters.CommandSandbox;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a git process is started over a workspace (SPEC D29, ADR 0034). Inside the D27 sandbox by
 * default: the workspace bound read-only, its control directory and the Ratchet home hidden, the
 * repository's own configuration replaced by the sanitised one ({@link GitConfigFilter}) and its
 * hooks directory by an empty read-only one, no network, uid 65534, no inherited variable. Without
 * the sandbox (the operator's explicit opt-out) git runs as the worker with a cleared environment;
 * the caller then refuses any configuration that would be obeyed.
 *
 * <p>Either way: {@code GIT_DIR} and {@code GIT_WORK_TREE} name the workspace (no discovery of a
 * parent repository), no system or global configuration, no system attributes, no prompt, no
 * optional locks (observing never rewrites the index), and {@code -c} settings that git takes over
 * any repository file: no fsmonitor, hooks from {@code /dev/null}, no untracked cache, no protocol
 * allowed, and this workspace as the one safe directory.
 */
final class GitProcesses {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final int MAX_OUTPUT = 64 << 20;

  private final Path root;
  private final CommandSandbox sandbox;
  private final List<Path> hidden;

  GitProcesses(Path root, CommandSandbox sandbox, List<Path> hidden) {
    this.root = root;
    this.sandbox = sandbox;
    this.hidden = List.copyOf(hidden);
  }

  boolean sandboxed() {
    return sandbox.sandboxed();
  }

  /**
   * Runs {@code git <args>}; {@code config} is the sanitised configuration to put in place of the
   * repository's own (null: none, e.g. to read the repository's file itself).
   */
  BoundedProcess.Outcome run(List<String> args, Path config) {
    List<String> git = new ArrayList<>(List.of("git", "--no-pager"));
    for (String c : SETTINGS) {
      git.add("-c");
      git.add(c);
    }
    git.add("-c");
    git.add("safe.directory=" + root);
    git.addAll(args);
    Map<String, String> env = environment();
    try {
      if (!sandbox.sandboxed()) {
        return BoundedProcess.runIsolated(git, root, env, TIMEOUT, MAX_OUTPUT);
      }
      String unavailable = Bubblewrap.unavailableReason(sandbox.bubblewrap());
      if (unavailable != null) {
        throw new RatchetException(
            ErrorCode.PERMISSION,
            "workspace: git runs only inside the bubblewrap sandbox (SPEC D29), and "
                + unavailable
                + ". Install bubblewrap, or opt out explicitly with "
                + CommandSandbox.OPT_OUT_VARIABLE
                + "="
                + CommandSandbox.OPT_OUT_VALUE);
      }
      Path bwrap = sandbox.bubblewrap() == null ? Bubblewrap.find() : sandbox.bubblewrap();
      List<String> overlays = new ArrayList<>();
      Path dotGit = root.resolve(".git");
      if (config != null
          && Files.isRegularFile(dotGit.resolve("config"), LinkOption.NOFOLLOW_LINKS)) {
        overlays.addAll(
            List.of("--ro-bind", config.toString(), dotGit.resolve("config").toString()));
      }
      Path hooks = dotGit.resolve("hooks");
      if (Files.isDirectory(hooks, LinkOption.NOFOLLOW_LINKS)) {
        overlays.addAll(List.of("--tmpfs", hooks.toString(), "--remount-ro", hooks.toString()));
      }
      List<String> argv = Bubblewrap.wrapReadOnly(bwrap, root, hidden, overlays, env, git);
      return BoundedProcess.runIsolated(argv, root, Map.of(), TIMEOUT, MAX_OUTPUT);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot run git: " + e.getMessage(), e);
    }
  }

  private static final List<String> SETTINGS =
      List.of(
          "core.fsmonitor=false",
          "core.hooksPath=/dev/null",
          "core.untrackedCache=false",
          "core.pager=cat",
          "protocol.allow=never");

  private Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("LC_ALL", "C");
    env.put("GIT_DIR", root.resolve(".git").toString());
    env.put("GIT_WORK_TREE", root.toString());
    env.put("GIT_OPTIONAL_LOCKS", "0");
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("GIT_CONFIG_GLOBAL", "/dev/null");
    env.put("GIT_ATTR_NOSYSTEM", "1");
    env.put("GIT_TERMINAL_PROMPT", "0");
    env.put("GIT_NO_REPLACE_OBJECTS", "1");
    env.put("HOME", sandbox.sandboxed() ? "/tmp" : "/nonexistent");
    return env;
  }
}
