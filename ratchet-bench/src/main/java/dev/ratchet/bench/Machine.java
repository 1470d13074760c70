package dev.ratchet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What the figures were measured on, printed above the table. */
final class Machine {
  private Machine() {}

  static String describe(HarnessConfig cfg, Path file) {
    return String.format(
        Locale.ROOT,
        "Ratchet benchmarks (mode %s)%n%n"
            + "- CPU: %s, %d cores visible to the JVM%n"
            + "- JDK: %s %s (%s), max heap %d MiB%n"
            + "- OS: %s %s%n"
            + "- SQLite file: %s (WAL, synchronous=FULL)%n",
        cfg.mode(),
        cpuModel(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"),
        System.getProperty("java.vm.version"),
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        file.toAbsolutePath());
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or not readable: say so below.
    }
    return System.getProperty("os.arch") + " (model unknown)";
  }
}
