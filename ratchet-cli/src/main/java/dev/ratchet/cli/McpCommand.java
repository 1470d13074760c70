package dev.ratchet.cli;

import dev.ratchet.ops.McpServer;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.seam.CrashSeam;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ratchet mcp TASK.json}: serves a run's action kinds as MCP tools over stdio. */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve one durable run of a task file to an AI agent as Model Context Protocol (MCP) tools,"
          + " over stdio: the agent's MCP client starts this command and talks JSON-RPC on its"
          + " stdin/stdout (logs go to stderr).",
      "",
      "Tools: one per action kind the task permits (reads, verifications, writes), with JSON"
          + " schemas. Every write takes a call_id: reuse it when retrying and the write happens"
          + " exactly once, even if this server is killed mid-call and restarted with the same"
          + " --run-id. Writes the task lists in approval_required answer awaiting_approval until"
          + " an operator signs an approval with 'ratchet approve RUN_ID --approver NAME'; the"
          + " agent can never approve.",
      "",
      "Start a new run, or continue one after a restart with the same --run-id. See docs/mcp.md"
          + " for client configuration (desktop and IDE assistants, Python and TypeScript"
          + " clients)."
    },
    footer = {
      "",
      "Example client configuration (JSON, e.g. an IDE's mcpServers entry):",
      "  {\"mcpServers\": {\"ratchet\": {\"command\": \"/path/to/ratchet\",",
      "    \"args\": [\"mcp\", \"/path/to/task.json\", \"--run-id\", \"orders-1\","
          + " \"--home\", \"/path/to/.ratchet\"]}}}"
    })
final class McpCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Parameters(index = "0", paramLabel = "TASK.json", description = "The task file.")
  Path taskFile;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description =
          "The run to serve: resumed if the store holds it, else started (default: a new"
              + " mcp-<8 random hex digits>). Pass it to keep one run across restarts. With --http,"
              + " repeat it to serve several runs of the task file, each at /runs/<ID>/mcp.")
  List<String> runIds = new ArrayList<>();

  @Option(
      names = "--http",
      paramLabel = "[HOST:]PORT",
      description =
          "Serve over streamable HTTP instead of stdio, on a loopback address (default host"
              + " 127.0.0.1; port 0 picks a free one, printed on stderr), or with"
              + " --tls-keystore over HTTPS on any address of this host. Every request needs"
              + " 'Authorization: Bearer TOKEN' with a token from 'ratchet mcp-token issue'"
              + " scoped to the run.")
  String http;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      description =
          "With --http: serve HTTPS with the key and certificate in this PKCS#12 keystore; the"
              + " server may then bind a non-loopback address (bind the name clients use).")
  Path tlsKeystore;

  @Option(
      names = "--tls-password-file",
      paramLabel = "FILE",
      description = "The keystore's password, in a file readable only by you (never an argument).")
  Path tlsPasswordFile;

  @Option(
      names = "--console-url",
      paramLabel = "URL",
      description = "Base URL of the Ratchet console: awaiting-approval results link to it.")
  String consoleUrl;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Lease owner name.")
  String workerId;

  McpCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    return McpServer.serve(
        services,
        common.settings(null),
        new McpServer.Options(
            taskFile,
            runIds,
            http,
            tlsKeystore,
            tlsPasswordFile,
            consoleUrl,
            Workers.id(workerId),
            Session.DEFAULT_LEASE_TTL,
            spec.parent().version()[0].replace("ratchet ", "")),
        CrashSeam.NONE,
        () -> {},
        err());
  }
}
