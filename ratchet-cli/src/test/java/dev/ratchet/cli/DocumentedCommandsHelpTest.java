package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.Services;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 39: the docs are checked against the code. Every command README.md and docs/cli.md name
 * ({@code ratchet X} or {@code ./ratchet X Y}) exists in the command tree and answers {@code
 * --help} with exit 0; every command of the tree is named in docs/cli.md.
 */
class DocumentedCommandsHelpTest {
  /** {@code ratchet X [Y]} in prose and examples, or the first cell of a command table row. */
  private static final Pattern NAMED =
      Pattern.compile("(?:(?:\\./)?ratchet |(?m:^)\\| `)([a-z][a-z-]+)(?: ([a-z][a-z-]+))?");

  private static List<List<String>> documented(CommandLine root, String... docs)
      throws IOException {
    Map<String, CommandLine> top = root.getSubcommands();
    TreeSet<String> seen = new TreeSet<>();
    List<List<String>> out = new ArrayList<>();
    for (String doc : docs) {
      Matcher m = NAMED.matcher(Files.readString(Path.of(doc)));
      while (m.find()) {
        CommandLine first = top.get(m.group(1));
        if (first == null) {
          continue; // prose: "ratchet runs", "ratchet home" …
        }
        List<String> words = new ArrayList<>(List.of(m.group(1)));
        if (m.group(2) != null && first.getSubcommands().containsKey(m.group(2))) {
          words.add(m.group(2));
        }
        if (seen.add(String.join(" ", words))) {
          out.add(words);
        }
      }
    }
    return out;
  }

  @Test
  void everyDocumentedCommandAnswersHelp() throws IOException {
    CommandLine root = Main.commandLine(Services.standard());
    List<List<String>> commands = documented(root, "../README.md", "../docs/cli.md");
    assertThat(commands).hasSizeGreaterThan(15);
    for (List<String> words : commands) {
      List<String> args = new ArrayList<>(words);
      args.add("--help");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code =
          Main.execute(
              args.toArray(new String[0]),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8),
              Services.standard());
      String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
      assertThat(code).as("ratchet %s --help: %s", String.join(" ", words), text).isZero();
      assertThat(text).as(String.join(" ", words)).contains("Usage: ratchet " + words.get(0));
    }
  }

  @Test
  void everyCommandOfTheTreeIsDocumented() throws IOException {
    CommandLine root = Main.commandLine(Services.standard());
    String cli = Files.readString(Path.of("../docs/cli.md"));
    for (String name : root.getSubcommands().keySet()) {
      if (name.equals("help")) {
        continue;
      }
      assertThat(cli).as("docs/cli.md names '%s'", name).containsPattern("`" + name + "[ `]");
    }
  }
}
