package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.cli.internal.EndOfInput;
import dev.ratchet.cli.internal.McpRun;
import dev.ratchet.cli.internal.Services;
import dev.ratchet.cli.internal.Session;
import dev.ratchet.cli.internal.Settings;
import dev.ratchet.cli.internal.StoreFactory;
import dev.ratchet.cli.internal.TaskFile;
import dev.ratchet.cli.internal.TaskRegistry;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
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
              + " mcp-<8 random hex digits>). Pass it to keep one run across restarts.")
  String runId;

  @Option(
      names = "--console-url",
      paramLabel = "URL",
      description = "Base URL of the Ratchet console: awaiting-approval results link to it.")
  String consoleUrl;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Lease owner name.")
  String workerId;

  /** Test-only: the crash window where this process dies for real (the crash tests). */
  @Option(names = "--crash-at", hidden = true)
  CrashPoint crashAt;

  @Option(names = "--lease-ttl-ms", hidden = true, defaultValue = "30000")
  long leaseTtlMs;

  McpCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    // Only protocol messages may reach stdout: everything else printed from here goes to stderr.
    PrintStream protocol = System.out;
    System.setOut(System.err);
    TaskFile tf = TaskFile.load(taskFile, services.adapters());
    String id =
        TaskRegistry.requireRunId(
            runId != null ? runId : "mcp-" + HexFormat.of().formatHex(services.entropy().bytes(4)));
    Settings settings = common.settings(null);
    Session.preflight(settings);
    HaltingSeam halting = crashAt == null ? null : new HaltingSeam(crashAt, err());
    CrashSeam seam = halting == null ? CrashSeam.NONE : halting;
    try (Session session = Session.open(services, settings, StoreFactory.Mode.CREATE, seam)) {
      boolean exists = !session.store().runs(id).isEmpty();
      if (exists && !session.find(id).taskId().equals(tf.task().taskId())) {
        throw RatchetException.contract(
            "--run-id: run '" + id + "' belongs to another task than " + taskFile);
      }
      EnvironmentAdapter adapter = Session.adapter(services, tf, !exists, seam);
      if (!exists) {
        TaskRegistry.record(session.home(), id, tf);
      }
      Duration ttl = Duration.ofMillis(leaseTtlMs);
      Ratchet ratchet = session.ratchet(Workers.id(workerId), ttl, seam);
      err().println("ratchet mcp: pid " + ProcessHandle.current().pid());
      try (McpRun run = new McpRun(ratchet, tf, id, adapter, ttl, services, this::log)) {
        run.open(exists);
        if (halting != null) {
          halting.arm();
        }
        ServerSettings ss =
            new ServerSettings(
                id,
                "ratchet approve " + id + " --home " + session.home().dir() + " --approver NAME",
                consoleUrl,
                !"workspace".equals(tf.task().adapter()));
        try (McpToolServer server =
            new McpToolServer(run, tf.task(), adapter, ss, services.entropy())) {
          EndOfInput in = new EndOfInput(System.in);
          McpSyncServer mcp =
              server.serve(
                  new StdioServerTransportProvider(server.jsonMapper(), in, protocol),
                  spec.parent().version()[0].replace("ratchet ", ""));
          log("serving " + server.tools().size() + " tools of run " + id + " on stdio");
          in.await();
          log("the client closed stdin; stopping");
          mcp.closeGracefully();
        }
      } finally {
        if (adapter instanceof AutoCloseable c) {
          try {
            c.close();
          } catch (Exception e) {
            // Closing an adapter changes nothing it committed.
          }
        }
      }
    }
    return 0;
  }

  private void log(String line) {
    err().println("ratchet mcp: " + line);
    err().flush();
  }
}
