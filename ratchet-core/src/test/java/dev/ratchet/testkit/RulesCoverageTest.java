package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every rule id of docs/rules.md is cited by some test, and every cited id exists. */
class RulesCoverageTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern ROW = Pattern.compile("^\\| (R[0-9][^ |]*) \\|", Pattern.MULTILINE);
  private static final Pattern ANNOTATION =
      Pattern.compile("@Rules\\(\\{?([^)]*?)\\}?\\)", Pattern.DOTALL);
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

  @Test
  void everyRuleIsCitedAndEveryCitationIsARule() throws IOException {
    Set<String> rules = new TreeSet<>();
    Matcher m = ROW.matcher(Files.readString(ROOT.resolve("docs/rules.md")));
    while (m.find()) {
      rules.add(m.group(1));
    }
    Set<String> cited = new TreeSet<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/"))
          .forEach(p -> collect(p, cited));
    }
    assertThat(rules).isNotEmpty();
    Set<String> uncited = new TreeSet<>(rules);
    uncited.removeAll(cited);
    Set<String> unknown = new TreeSet<>(cited);
    unknown.removeAll(rules);
    assertThat(uncited).as("rules no test cites").isEmpty();
    assertThat(unknown).as("cited ids missing from docs/rules.md").isEmpty();
  }

  private static void collect(Path file, Set<String> into) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher a = ANNOTATION.matcher(text);
    while (a.find()) {
      Matcher q = QUOTED.matcher(a.group(1));
      while (q.find()) {
        into.add(q.group(1));
      }
    }
  }
}
