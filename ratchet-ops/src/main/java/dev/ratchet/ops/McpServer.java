package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.mcp.http.McpTls;
import dev.ratchet.seam.CrashSeam;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Serves runs of a task file as MCP tools (ADR 0080, 0081): one run over stdio, or several over
 * streamable HTTP. {@code ratchet mcp} runs it with no crash seam; the harness's crash entry point
 * with one.
 */
public final class McpServer {
  /**
   * What to serve.
   *
   * @param runIds the runs (resumed if stored, else started); empty: one new {@code mcp-<hex>}
   * @param http {@code [HOST:]PORT} to serve over HTTP, or null: stdio
   * @param tlsKeystore with {@code http}: a PKCS#12 keystore to serve HTTPS with, or null
   * @param tlsPasswordFile the keystore's password file (given with {@code tlsKeystore} or not)
   * @param version the server version the MCP handshake reports
   */
  public record Options(
      Path taskFile,
      List<String> runIds,
      String http,
      Path tlsKeystore,
      Path tlsPasswordFile,
      String consoleUrl,
      String workerId,
      Duration leaseTtl,
      String version) {
    public Options {
      runIds = List.copyOf(runIds);
    }
  }

  private final Options options;
  private final PrintWriter err;

  private McpServer(Options options, PrintWriter err) {
    this.options = options;
    this.err = err;
  }

  /**
   * Serves until the client closes stdin (stdio) or the process is stopped (HTTP). Only protocol
   * messages reach stdout: everything else printed from here on goes to stderr. {@code armed} runs
   * once every run is open (a crash seam is armed then, not during recovery).
   */
  public static int serve(
      Services services,
      Settings settings,
      Options options,
      CrashSeam seam,
      Runnable armed,
      PrintWriter err)
      throws InterruptedException {
    return new McpServer(options, err).serve(services, settings, seam, armed);
  }

  private int serve(Services services, Settings settings, CrashSeam seam, Runnable armed)
      throws InterruptedException {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    TaskFile tf = TaskFile.load(options.taskFile(), services.adapters());
    McpListen listen = listen();
    if (listen == null && options.runIds().size() > 1) {
      throw RatchetException.contract("--run-id: stdio serves one run; serve several with --http");
    }
    List<String> ids = new ArrayList<>();
    for (String id :
        options.runIds().isEmpty() ? List.of(randomRunId(services)) : options.runIds()) {
      if (ids.contains(TaskRegistry.requireRunId(id))) {
        throw RatchetException.contract("--run-id: run " + id + " is given twice");
      }
      ids.add(id);
    }
    Session.preflight(settings);
    // The file as it is now, kept: a change is logged before each call, none applies live here.
    Settings pinned = settings.pinned();
    try (Session session = Session.open(services, pinned, StoreFactory.Mode.CREATE, seam)) {
      Duration ttl = options.leaseTtl();
      // Trust roots are live (issue 39): re-read before each call, each run resumed on a change.
      LiveRatchet ratchet =
          new LiveRatchet(
              session,
              () -> session.ratchet(options.workerId(), ttl, seam),
              this::log,
              new LiveConfig(
                  pinned.configuration(), java.util.Set.of(), this::log, services.clock()));
      err.println("ratchet mcp: pid " + ProcessHandle.current().pid());
      List<McpServed> served = new ArrayList<>();
      CountDownLatch released = new CountDownLatch(1);
      try {
        for (String id : ids) {
          served.add(
              McpServed.open(
                  services,
                  session,
                  ratchet,
                  tf,
                  options.taskFile(),
                  id,
                  ttl,
                  seam,
                  settingsOf(id, session.home().dir(), tf),
                  this::log));
        }
        armed.run();
        if (listen == null) {
          serveStdio(served.get(0), protocol);
        } else {
          listen.serve(session.home().dir(), served, options.version(), this::log, released);
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

  private McpListen listen() {
    Path keystore = options.tlsKeystore();
    Path password = options.tlsPasswordFile();
    if (options.http() == null && (keystore != null || password != null)) {
      throw RatchetException.contract("--tls-keystore: TLS needs --http");
    }
    if ((keystore == null) != (password == null)) {
      throw RatchetException.contract(
          "--tls-keystore and --tls-password-file: give both, or neither (plain HTTP on loopback)");
    }
    if (options.http() == null) {
      return null;
    }
    return McpListen.parse(
        options.http(), keystore == null ? null : McpTls.context(keystore, password));
  }

  private static String randomRunId(Services services) {
    return "mcp-" + HexFormat.of().formatHex(services.entropy().bytes(4));
  }

  private ServerSettings settingsOf(String id, Path home, TaskFile tf) {
    return new ServerSettings(
        id,
        "ratchet approve " + id + " --home " + home + " --approver NAME",
        options.consoleUrl(),
        !"workspace".equals(tf.task().adapter()));
  }

  private void serveStdio(McpServed s, PrintStream protocol) throws InterruptedException {
    EndOfInput in = new EndOfInput(System.in);
    McpSyncServer mcp =
        s.tools()
            .serve(
                new StdioServerTransportProvider(s.tools().jsonMapper(), in, protocol),
                options.version());
    log("serving " + s.tools().tools().size() + " tools of run " + s.id() + " on stdio");
    in.await();
    log("the client closed stdin; stopping");
    mcp.closeGracefully();
  }

  private void log(String line) {
    err.println("ratchet mcp: " + line);
    err.flush();
  }
}
