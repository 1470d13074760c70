package dev.ratchet.adapters.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code bwrap} command line a sandboxed command runs under (SPEC D27, docs/adapters.md), and a
 * once-per-process probe that it can start at all. Every flag is chosen for one reason:
 *
 * <ul>
 *   <li>{@code --unshare-all} (user, ipc, pid, net, uts, cgroup) and {@code --share-net} only when
 *       the task allows the network; {@code --unshare-user} explicitly, because {@code
 *       --uid}/{@code --gid} need it and bwrap run by root would otherwise skip the user namespace;
 *   <li>{@code --uid 65534 --gid 65534} (nobody), {@code --cap-drop ALL}: a worker running as root
 *       does not hand root or any capability to the command; {@code --disable-userns}: the command
 *       cannot create a nested user namespace to regain capabilities;
 *   <li>{@code --die-with-parent}: a killed worker takes the command with it; {@code
 *       --new-session}: no ioctl(TIOCSTI) into the worker's terminal;
 *   <li>{@code --clearenv} and {@code --setenv} for the allowlist only (PATH, LANG, HOME and TMPDIR
 *       pointing at the sandbox's own /tmp, plus what the runner was configured with): the worker's
 *       environment — keys in {@code RATCHET_*}, database URLs — is not inherited;
 *   <li>{@code --ro-bind /usr} and the merged-/usr symlinks (or read-only binds where /bin, /lib…
 *       are real directories), a few named files of /etc read-only (never /etc as a whole:
 *       root-owned secrets live there), fresh {@code --proc}, {@code --dev}, {@code --tmpfs /tmp};
 *   <li>the workspace {@code --bind} read-write at its own path, then its control directory and
 *       every hidden path covered by an empty read-only tmpfs (a file by /dev/null): nothing else
 *       of the host exists inside, so neither the Ratchet home, nor key files, nor the store.
 * </ul>
 */
public final class Bubblewrap {
  /** The uid and gid commands run as inside the sandbox. */
  public static final int NOBODY = 65534;

  private static final List<String> ETC_FILES =
      List.of(
          "/etc/alternatives",
          "/etc/ld.so.cache",
          "/etc/ld.so.conf",
          "/etc/ld.so.conf.d",
          "/etc/localtime",
          "/etc/nsswitch.conf",
          "/etc/passwd",
          "/etc/group",
          "/etc/hosts",
          "/etc/resolv.conf",
          "/etc/ssl/certs",
          "/etc/ca-certificates",
          "/etc/java-17-openjdk");

  private static final List<String> TOP_DIRS = List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64");

  private static final Map<String, String> PROBES = new ConcurrentHashMap<>();

  private Bubblewrap() {}

  /** The {@code bwrap} program on the worker's PATH, or null. */
  public static Path find() {
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, "bwrap");
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Null when bubblewrap ({@code program}, or the one on PATH when null) starts here with the flags
   * commands get, else why not (missing, or the kernel refused a namespace). Probed once per
   * program per process: {@code bwrap … true}.
   */
  public static String unavailableReason(Path program) {
    Path bwrap = program == null ? find() : program;
    if (bwrap == null) {
      return "bwrap was not found on PATH (install the 'bubblewrap' package)";
    }
    if (!Files.isRegularFile(bwrap) || !Files.isExecutable(bwrap)) {
      return bwrap + " is not an executable file (install the 'bubblewrap' package)";
    }
    String reason = PROBES.computeIfAbsent(bwrap.toString(), b -> probe(Path.of(b)));
    return reason.isEmpty() ? null : reason;
  }

  private static String probe(Path bwrap) {
    List<String> argv = new ArrayList<>(base(bwrap, false, Map.of()));
    argv.add("--");
    argv.add("true");
    try {
      BoundedProcess.Outcome o =
          BoundedProcess.run(argv, Path.of("/"), Map.of(), Duration.ofSeconds(20), 2048);
      if (o.exitCode() == 0) {
        return "";
      }
      String why = o.stderr().strip();
      return "bwrap cannot start a sandbox here (exit "
          + o.exitCode()
          + (why.isEmpty() ? "" : ": " + why.lines().findFirst().orElse(""))
          + ")";
    } catch (IOException e) {
      return "bwrap cannot be started (" + e.getClass().getSimpleName() + ")";
    }
  }

  /**
   * The full command line: bwrap, its flags, then {@code argv}. {@code hidden} are absolute paths
   * to cover when they lie inside {@code workspace}; the control directory is one of them.
   */
  public static List<String> wrap(
      Path bwrap,
      Path workspace,
      List<Path> hidden,
      boolean network,
      Map<String, String> environment,
      List<String> argv) {
    List<String> out = base(bwrap, network, environment);
    String ws = workspace.toString();
    add(out, "--bind", ws, ws);
    // D29: the repository's control structure is read-only to commands.
    Path dotGit = workspace.resolve(".git");
    if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)
        || Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS)) {
      add(out, "--ro-bind", dotGit.toString(), dotGit.toString());
    }
    hide(out, workspace, hidden);
    add(out, "--chdir", ws);
    out.add("--");
    out.addAll(argv);
    return out;
  }

  /**
   * The command line of a process that reads the workspace and writes nothing there (git over a
   * workspace, D29): the workspace bound read-only, {@code hidden} covered as by {@link #wrap},
   * then {@code overlays} (bwrap mount arguments over paths inside the workspace), no network.
   */
  public static List<String> wrapReadOnly(
      Path bwrap,
      Path workspace,
      List<Path> hidden,
      List<String> overlays,
      Map<String, String> environment,
      List<String> argv) {
    List<String> out = base(bwrap, false, environment);
    String ws = workspace.toString();
    add(out, "--ro-bind", ws, ws);
    hide(out, workspace, hidden);
    out.addAll(overlays);
    add(out, "--chdir", ws);
    out.add("--");
    out.addAll(argv);
    return out;
  }

  private static void hide(List<String> out, Path workspace, List<Path> hidden) {
    for (Path h : hidden) {
      if (!h.startsWith(workspace) || h.equals(workspace)) {
        continue;
      }
      if (Files.isDirectory(h, LinkOption.NOFOLLOW_LINKS)) {
        add(out, "--tmpfs", h.toString());
        add(out, "--remount-ro", h.toString());
      } else if (Files.exists(h, LinkOption.NOFOLLOW_LINKS)) {
        add(out, "--ro-bind", "/dev/null", h.toString());
      }
    }
  }

  private static List<String> base(Path bwrap, boolean network, Map<String, String> environment) {
    List<String> out = new ArrayList<>();
    out.add(bwrap.toString());
    out.add("--unshare-all");
    if (network) {
      out.add("--share-net");
    }
    out.add("--unshare-user");
    out.add("--disable-userns");
    add(out, "--uid", Integer.toString(NOBODY));
    add(out, "--gid", Integer.toString(NOBODY));
    add(out, "--cap-drop", "ALL");
    out.add("--die-with-parent");
    out.add("--new-session");
    out.add("--clearenv");
    add(out, "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin");
    add(out, "--setenv", "LANG", "C.UTF-8");
    add(out, "--setenv", "HOME", "/tmp");
    add(out, "--setenv", "TMPDIR", "/tmp");
    environment.forEach((k, v) -> add(out, "--setenv", k, v));
    add(out, "--ro-bind", "/usr", "/usr");
    for (String d : TOP_DIRS) {
      Path p = Path.of(d);
      if (Files.isSymbolicLink(p)) {
        try {
          add(out, "--symlink", Files.readSymbolicLink(p).toString(), d);
        } catch (IOException e) {
          // An unreadable link is left out: the sandbox then has no such directory.
        }
      } else if (Files.isDirectory(p)) {
        add(out, "--ro-bind", d, d);
      }
    }
    for (String f : ETC_FILES) {
      add(out, "--ro-bind-try", f, f);
    }
    add(out, "--proc", "/proc");
    add(out, "--dev", "/dev");
    add(out, "--tmpfs", "/tmp");
    return out;
  }

  private static void add(List<String> out, String... args) {
    out.addAll(List.of(args));
  }
}
