package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.Services;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Issue 35, item 5 (ADR 0110): the production command line has no hidden option and no hidden
 * subcommand anywhere in its tree. Crash and pause points, short leases and the demo's canary are
 * arguments of the harness's entry points, never of a command an operator can type.
 */
class NoHiddenOptionTest {
  @Test
  void noCommandOfTheTreeHidesAnOptionOrASubcommand() {
    CommandLine root = Main.commandLine(Services.standard());
    List<String> commands = new ArrayList<>();
    List<String> hidden = new ArrayList<>();
    walk(root, commands, hidden);
    // The walk reached the whole tree, nested subcommands included.
    assertThat(commands)
        .contains("ratchet", "ratchet worker", "ratchet mcp", "ratchet demo", "ratchet demo agent")
        .contains("ratchet review decide", "ratchet keys trust")
        .hasSizeGreaterThan(25);
    assertThat(hidden).as("hidden options or subcommands").isEmpty();
  }

  @Test
  void theWalkWouldSeeAHiddenOption() {
    CommandSpec spec = CommandSpec.create().name("probe");
    spec.addOption(OptionSpec.builder("--crash-at").hidden(true).arity("1").build());
    List<String> hidden = new ArrayList<>();
    walk(new CommandLine(spec), new ArrayList<>(), hidden);
    assertThat(hidden).containsExactly("probe --crash-at");
  }

  private static void walk(CommandLine cl, List<String> commands, List<String> hidden) {
    CommandSpec spec = cl.getCommandSpec();
    commands.add(spec.qualifiedName());
    for (OptionSpec o : spec.options()) {
      if (o.hidden()) {
        hidden.add(spec.qualifiedName() + " " + o.longestName());
      }
    }
    if (spec.usageMessage().hidden()) {
      hidden.add(spec.qualifiedName() + " (command)");
    }
    for (java.util.Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
      if (sub.getKey().equals(sub.getValue().getCommandName())) { // an alias is walked once
        walk(sub.getValue(), commands, hidden);
      }
    }
  }
}
