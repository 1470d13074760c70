package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.mcp.http.McpTls;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
    if (http == null && (tlsKeystore != null || tlsPasswordFile != null)) {
      throw RatchetException.contract("--tls-keystore: TLS needs --http");
    }
    if ((tlsKeystore == null) != (tlsPasswordFile == null)) {
      throw RatchetException.contract(
          "--tls-keystore and --tls-password-file: give both, or neither (plain HTTP on loopback)");
    }
    McpListen listen =
        http == null
            ? null
            : McpListen.parse(
                http, tlsKeystore == null ? null : McpTls.context(tlsKeystore, tlsPasswordFile));
    if (listen == null && runIds.size() > 1) {
      throw RatchetException.contract("--run-id: stdio serves one run; serve several with --http");
    }
    List<String> ids = new ArrayList<>();
    for (String id : runIds.isEmpty() ? List.of(randomRunId()) : runIds) {
      if (ids.contains(TaskRegistry.requireRunId(id))) {
        throw RatchetException.contract("--run-id: run " + id + " is given twice");
      }
      ids.add(id);
    }
    Settings settings = common.settings(null);
    Session.preflight(settings);
    HaltingSeam halting = crashAt == null ? null : new HaltingSeam(crashAt, err());
    CrashSeam seam = halting == null ? CrashSeam.NONE : halting;
    String version = spec.parent().version()[0].replace("ratchet ", "");
    try (Session session = Session.open(services, settings, StoreFactory.Mode.CREATE, seam)) {
      Duration ttl = Duration.ofMillis(leaseTtlMs);
      Ratchet ratchet = session.ratchet(Workers.id(workerId), ttl, seam);
      err().println("ratchet mcp: pid " + ProcessHandle.current().pid());
      List<McpServed> served = new ArrayList<>();
      CountDownLatch released = new CountDownLatch(1);
      try {
        for (String id : ids) {
          served.add(McpServed.open(services, session, ratchet, tf, taskFile, id, ttl, seam, this));
        }
        if (halting != null) {
          halting.arm();
        }
        if (listen == null) {
          serveStdio(served.get(0), protocol, version);
        } else {
          listen.serve(session.home().dir(), served, version, this::log, released);
        }
      } finally {
        for (int i = served.size() - 1; i >= 0; i--) {
          served.get(i).close();
        }
        released.countDown();
      }
    }
    return 0;
  }

  private String randomRunId() {
    return "mcp-" + HexFormat.of().formatHex(services.entropy().bytes(4));
  }

  ServerSettings settingsOf(String id, Path home, TaskFile tf) {
    return new ServerSettings(
        id,
        "ratchet approve " + id + " --home " + home + " --approver NAME",
        consoleUrl,
        !"workspace".equals(tf.task().adapter()));
  }

  private void serveStdio(McpServed s, PrintStream protocol, String version)
      throws InterruptedException {
    EndOfInput in = new EndOfInput(System.in);
    McpSyncServer mcp =
        s.tools()
            .serve(new StdioServerTransportProvider(s.tools().jsonMapper(), in, protocol), version);
    log("serving " + s.tools().tools().size() + " tools of run " + s.id() + " on stdio");
    in.await();
    log("the client closed stdin; stopping");
    mcp.closeGracefully();
  }

  void log(String line) {
    err().println("ratchet mcp: " + line);
    err().flush();
  }
}
