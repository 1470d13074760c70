package dev.ratchet.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * One line per sitting of a campaign next to its results file (when, which seeds, how long), so
 * the report can say how a campaign run in several sittings was put together.
 */
final class Sittings {
  private Sittings() {}

  static Path file(Path dir, String campaign, Mode mode) {
    return dir.resolve(campaign + "-" + mode.name().toLowerCase(Locale.ROOT) + ".sittings");
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
