package dev.ratchet.cli;

import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.Services;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * The {@code ratchet} command. Exit codes (docs/cli.md) derive from {@link
 * dev.ratchet.error.ErrorCode}: 0 ok, 1 internal error, 2 bad usage or input, 3 refused
 * fail-closed, 4 frozen (needs review or approval), 5 store unavailable.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    int code = execute(args, System.out, System.err, Services.standard());
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }

  /** Runs one command line with the given wiring and returns its exit code. */
  public static int execute(String[] args, PrintStream out, PrintStream err, Services services) {
    return execute(commandLine(services), args, out, err);
  }

  /** Runs {@code cl} on {@code args}, its output and errors as UTF-8 on the given streams. */
  static int execute(CommandLine cl, String[] args, PrintStream out, PrintStream err) {
    cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    int code = cl.execute(args);
    cl.getOut().flush();
    cl.getErr().flush();
    return code;
  }

  static CommandLine commandLine(Services services) {
    return configured(new CommandLine(new RatchetCommand(), new Factory(services)));
  }

  /** {@code cl} with the command line's error handling (docs/cli.md exit codes). */
  static CommandLine configured(CommandLine cl) {
    cl.setExecutionExceptionHandler(Errors::handleExecution);
    cl.setParameterExceptionHandler(Errors::handleParameter);
    cl.setExecutionStrategy(
        parsed -> {
          assignRole(parsed);
          return new CommandLine.RunLast().execute(parsed);
        });
    return cl;
  }

  /**
   * Tells the options of the command about to run which PostgreSQL role it connects as (D21, {@link
   * PgRole}): the leaf command's qualified name, e.g. {@code review decide}.
   */
  private static void assignRole(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult leaf = parsed;
    StringBuilder name = new StringBuilder();
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
      name.append(name.isEmpty() ? "" : " ").append(leaf.commandSpec().name());
    }
    PgRole role = PgRole.forCommand(name.toString());
    assign(leaf.commandSpec(), role);
  }

  private static void assign(CommandLine.Model.CommandSpec spec, PgRole role) {
    for (CommandLine.Model.CommandSpec mixin : spec.mixins().values()) {
      if (mixin.userObject() instanceof CommonOptions common) {
        common.role = role;
      }
      assign(mixin, role);
    }
  }

  /** Creates commands with the wiring when they take it. */
  record Factory(Services services) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> cls) throws Exception {
      try {
        return cls.getDeclaredConstructor(Services.class).newInstance(services);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(cls);
      }
    }
  }
}
