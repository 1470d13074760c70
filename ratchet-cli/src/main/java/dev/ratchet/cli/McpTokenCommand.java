package dev.ratchet.cli;

import dev.ratchet.mcp.http.McpTokens;
import dev.ratchet.ops.Services;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet mcp-token issue|revoke|list}: the bearer tokens of {@code ratchet mcp --http} (ADR
 * 0081). A token is printed once, at issue; the home keeps only its SHA-256.
 */
@Command(
    name = "mcp-token",
    mixinStandardHelpOptions = true,
    description =
        "Issue, revoke and list the bearer tokens MCP clients present to 'ratchet mcp --http'."
            + " One token per client, scoped to named runs; the home keeps only its SHA-256"
            + " (<home>/mcp-tokens/<client>.json, mode 0600).",
    subcommands = {
      McpTokenCommand.Issue.class,
      McpTokenCommand.Revoke.class,
      McpTokenCommand.ListTokens.class
    })
final class McpTokenCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required: issue, revoke or list");
  }

  static McpTokens tokens(CommonOptions common) {
    Path dir = common.settings(null).resolvedHome().dir().resolve("mcp-tokens");
    return new McpTokens(dir);
  }

  /** {@code mcp-token issue}. */
  @Command(
      name = "issue",
      mixinStandardHelpOptions = true,
      description =
          "Issue a token for one client, scoped to the runs named. Prints the token once, on"
              + " stdout: give it to the client (it is sent as 'Authorization: Bearer TOKEN')."
              + " It cannot be shown again; revoke and issue anew if it is lost.")
  static final class Issue extends CliCommand {
    @Mixin CommonOptions common;

    @Option(
        names = "--client",
        required = true,
        paramLabel = "NAME",
        description = "Who holds the token (a label, traced with its calls).")
    String client;

    @Option(
        names = "--run",
        required = true,
        paramLabel = "RUN_ID",
        description = "A run the token may reach; repeat for more.")
    List<String> runs = new ArrayList<>();

    Issue(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      String token =
          tokens(common).issue(client, runs, services.entropy(), services.clock().instant());
      err().println("issued a token for client '" + client + "', scoped to runs " + runs);
      out().println(token);
      return 0;
    }
  }

  /** {@code mcp-token revoke}. */
  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Revoke a client's token; the next request with it is refused (401).")
  static final class Revoke extends CliCommand {
    @Mixin CommonOptions common;

    @Parameters(index = "0", paramLabel = "CLIENT", description = "The client's name.")
    String client;

    Revoke(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      if (!tokens(common).revoke(client)) {
        err().println("client '" + client + "' holds no token");
        return 1;
      }
      out().println("revoked the token of client '" + client + "'");
      return 0;
    }
  }

  /** {@code mcp-token list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the clients holding a token and their runs (never a token).")
  static final class ListTokens extends CliCommand {
    @Mixin CommonOptions common;

    ListTokens(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      for (McpTokens.Grant g : tokens(common).list()) {
        out()
            .println(
                g.client() + "\truns " + String.join(",", g.runs()) + "\tissued " + g.issuedAt());
      }
      return 0;
    }
  }
}
