package dev.ratchet.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Source-level rules the module architecture tests share where bytecode cannot tell: {@code assert}
 * statements leave no trace that ArchUnit sees once assertions are disabled.
 */
public final class SourceRules {
  private static final Pattern ASSERT_STATEMENT =
      Pattern.compile("^\\s*assert\\s", Pattern.MULTILINE);

  private SourceRules() {}

  /** The Java files under {@code sourceRoot} that contain an {@code assert} statement. */
  public static List<Path> filesUsingAssert(Path sourceRoot) {
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      return files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> ASSERT_STATEMENT.matcher(read(p)).find())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
