package dev.ratchet.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files inside the running browser sandbox's writable directories ({@code /tmp}, which holds
 * the profile and the default download directory, and {@code /dev/shm}), seen from the host through
 * {@code /proc/<pid>/root} of this JVM's Chromium browser process.
 */
final class SandboxFiles {
  private SandboxFiles() {}

  /** The sandbox root of this JVM's Chromium browser process (the one without {@code --type=}). */
  static Path root() {
    List<Path> roots =
        ProcessHandle.current()
            .descendants()
            .filter(
                h -> {
                  String c = cmdline(h.pid());
                  return c.startsWith("/usr/lib/chromium/chromium") && !c.contains("--type=");
                })
            .map(h -> Path.of("/proc/" + h.pid() + "/root"))
            .toList();
    if (roots.size() != 1) {
      throw new IllegalStateException("expected one Chromium browser process, found " + roots);
    }
    return roots.get(0);
  }

  /** Every regular file under the sandbox's {@code /tmp} and {@code /dev/shm}. */
  static List<Path> writable(Path root) {
    List<Path> out = new ArrayList<>();
    for (String dir : List.of("tmp", "dev/shm")) {
      try (Stream<Path> w = Files.walk(root.resolve(dir))) {
        w.filter(Files::isRegularFile).forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** Whether {@code f}'s bytes contain {@code marker} (ASCII); an unreadable file counts as yes. */
  static boolean contains(Path f, String marker) {
    try {
      return new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(marker);
    } catch (IOException e) {
      return !Files.notExists(f); // vanished while walking: not there; unreadable: fail closed
    }
  }

  private static String cmdline(long pid) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
