package dev.ratchet.browser.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line chromium-driver (and the Chromium it starts) runs under: never as root (D35).
 *
 * <ul>
 *   <li>A worker running as root first drops to uid/gid 65534 with {@code setpriv} (real, effective
 *       and saved ids, no supplementary groups, no inheritable capabilities), so the browser is
 *       65534 on the host too — bubblewrap run by root would map the sandbox's uid to host uid 0. A
 *       worker that is not root starts bubblewrap directly: the browser keeps the worker's own
 *       unprivileged uid on the host and is 65534 inside.
 *   <li>bubblewrap with every namespace unshared except the network (the browser must reach its
 *       driver and the service; request interception limits where it may go), {@code --cap-drop
 *       ALL}, {@code --die-with-parent} (a killed worker takes its browser with it), {@code
 *       --clearenv}, {@code /usr} and a few named files of {@code /etc} read-only, and a fresh
 *       tmpfs for {@code /tmp} and {@code /dev/shm}: the profile lives and dies there, and nothing
 *       of the Ratchet home, keys or store exists inside.
 *   <li>User namespaces stay allowed inside, so Chromium keeps its own renderer sandbox (it is
 *       never started with {@code --no-sandbox}).
 * </ul>
 */
final class Sandbox {
  static final int NOBODY = 65534;
  static final Path BWRAP = Path.of("/usr/bin/bwrap");
  static final Path SETPRIV = Path.of("/usr/bin/setpriv");

  private static final List<String> ETC =
      List.of(
          "/etc/alternatives",
          "/etc/ld.so.cache",
          "/etc/ld.so.conf",
          "/etc/ld.so.conf.d",
          "/etc/fonts",
          "/etc/chromium",
          "/etc/chromium.d",
          "/etc/passwd",
          "/etc/group",
          "/etc/hosts",
          "/etc/nsswitch.conf",
          "/etc/localtime");

  private Sandbox() {}

  /** The full argv: the privilege drop when needed, bubblewrap, then {@code argv}. */
  static List<String> wrap(List<String> argv) {
    requireExecutable(BWRAP, "bubblewrap ('bubblewrap' package)");
    List<String> out = new ArrayList<>();
    if (hostUid() == 0) {
      requireExecutable(SETPRIV, "setpriv ('util-linux' package)");
      out.add(SETPRIV.toString());
      out.add("--reuid=" + NOBODY);
      out.add("--regid=" + NOBODY);
      out.add("--clear-groups");
      out.add("--inh-caps=-all");
    }
    out.add(BWRAP.toString());
    out.add("--unshare-all");
    out.add("--share-net");
    out.add("--unshare-user");
    add(out, "--uid", Integer.toString(NOBODY));
    add(out, "--gid", Integer.toString(NOBODY));
    add(out, "--cap-drop", "ALL");
    out.add("--die-with-parent");
    out.add("--new-session");
    out.add("--clearenv");
    add(out, "--setenv", "PATH", "/usr/bin:/bin");
    add(out, "--setenv", "LANG", "C.UTF-8");
    add(out, "--setenv", "HOME", "/tmp");
    add(out, "--setenv", "TMPDIR", "/tmp");
    add(out, "--ro-bind", "/usr", "/usr");
    for (String d : List.of("/bin", "/sbin", "/lib", "/lib64")) {
      Path p = Path.of(d);
      try {
        if (Files.isSymbolicLink(p)) {
          add(out, "--symlink", Files.readSymbolicLink(p).toString(), d);
        } else if (Files.isDirectory(p)) {
          add(out, "--ro-bind", d, d);
        }
      } catch (IOException e) {
        // An unreadable link is left out: the sandbox then has no such directory.
      }
    }
    for (String f : ETC) {
      add(out, "--ro-bind-try", f, f);
    }
    add(out, "--proc", "/proc");
    add(out, "--dev", "/dev");
    add(out, "--tmpfs", "/tmp");
    add(out, "--tmpfs", "/dev/shm");
    out.add("--");
    out.addAll(argv);
    return out;
  }

  /** The worker's uid on the host, read from {@code /proc/self}. */
  static int hostUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "browser sandbox: cannot read this process's uid", e);
    }
  }

  private static void requireExecutable(Path p, String what) {
    if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "browser sandbox: "
              + p
              + " is missing; install "
              + what
              + " (browsers never run as root)");
    }
  }

  private static void add(List<String> out, String... args) {
    out.addAll(List.of(args));
  }
}
