package dev.ratchet.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * One line per sitting of a campaign next to its results file (when, on which commit, which seeds,
 * how long), so the report can say how a campaign run in several sittings was put together.
 */
final class Sittings {
  private Sittings() {}

  static Path file(Path dir, String campaign, Mode mode) {
    return dir.resolve(campaign + "-" + mode.name().toLowerCase(Locale.ROOT) + ".sittings");
  }

  /**
   * The commit of the working directory's checkout ({@code -dirty} if edited), or {@code unknown}.
   */
  static String commit() {
    try {
      Process p =
          new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor() == 0 && out.matches("[0-9a-f]{12}(-dirty)?") ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static void append(Path dir, String campaign, Mode mode, String line) {
    try {
      Files.createDirectories(dir);
      Files.writeString(
          file(dir, campaign, mode),
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
