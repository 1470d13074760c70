package dev.ratchet.cli;

import dev.ratchet.ops.DbInit;
import dev.ratchet.ops.Services;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ratchet db init}: prepares a PostgreSQL store and its roles (docs/cli.md). */
@Command(
    name = "db",
    mixinStandardHelpOptions = true,
    description = "Administer a PostgreSQL store.",
    subcommands = {DbCommand.Init.class})
final class DbCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required (ratchet db --help lists them)");
  }

  @Command(
      name = "init",
      mixinStandardHelpOptions = true,
      description =
          "As the owner (RATCHET_PG_USER): create or migrate the schema, create the configured"
              + " worker/operator/inspector users that do not exist (LOGIN, no password) and grant"
              + " each its privileges (SPEC D21). Idempotent.")
  static final class Init extends CliCommand {
    @Mixin CommonOptions common;

    Init(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      DbInit.run(common.settings(null), services.clock(), out());
      return 0;
    }
  }
}
