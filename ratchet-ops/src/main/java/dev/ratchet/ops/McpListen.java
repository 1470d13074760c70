package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.http.McpHttpServer;
import dev.ratchet.mcp.http.McpTokens;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;

/** {@code ratchet mcp --http [HOST:]PORT}: where to listen, and serving until stopped. */
public record McpListen(String host, int port, SSLContext tls) {
  /** {@code value} as {@code [HOST:]PORT}; without {@code tls}, HOST must be a loopback address. */
  public static McpListen parse(String value, SSLContext tls) {
    String host = "127.0.0.1";
    String port = value;
    int colon = value.lastIndexOf(':');
    if (colon >= 0) {
      host = value.substring(0, colon);
      port = value.substring(colon + 1);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      if (host.isEmpty()) {
        throw RatchetException.contract("--http: '" + value + "' has an empty host");
      }
    }
    int number;
    try {
      number = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw RatchetException.contract("--http: '" + value + "' must be [HOST:]PORT");
    }
    if (number < 0 || number > 65535) {
      throw RatchetException.contract("--http: port " + number + " is not in 0-65535");
    }
    // Before any run is opened: a refused address leaves the store untouched.
    if (tls == null) {
      McpHttpServer.requireLoopback(host);
    }
    return new McpListen(host, number, tls);
  }

  /**
   * Serves every run until the process is told to stop (SIGTERM, Ctrl-C). The stop waits (up to 10
   * s) for {@code released}, counted down by the caller once it has closed the runs and so released
   * their leases, before the JVM exits.
   */
  public void serve(
      Path home,
      List<McpServed> runs,
      String version,
      Consumer<String> log,
      CountDownLatch released)
      throws InterruptedException {
    McpTokens tokens = new McpTokens(home.resolve("mcp-tokens"));
    McpHttpServer server = new McpHttpServer(host, port, tokens, version, tls);
    try {
      for (McpServed s : runs) {
        server.mount(s.id(), s.tools());
      }
      URI base = server.start();
      for (McpServed s : runs) {
        log.accept(
            "serving "
                + s.tools().tools().size()
                + " tools of run "
                + s.id()
                + " at "
                + base.resolve("runs/" + s.id() + "/mcp"));
      }
      log.accept("listening on " + base);
      Thread hook =
          new Thread(
              () -> {
                server.close();
                try {
                  // Let the main thread release the runs' leases before the JVM exits.
                  released.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "ratchet-mcp-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      server.join();
      log.accept("stopping");
    } finally {
      server.close();
    }
  }
}
