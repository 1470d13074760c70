package dev.ratchet.mcp.http;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.internal.BearerFilter;
import dev.ratchet.mcp.internal.Endpoints;
import dev.ratchet.mcp.internal.ModernProtocol;
import dev.ratchet.mcp.internal.ProtocolSwitch;
import dev.ratchet.mcp.internal.ResourceMetadata;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpTransportContextExtractor;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * One long-lived streamable-HTTP MCP server for many runs (ADR 0081): each run has its own endpoint
 * {@code /runs/<run-id>/mcp} and its own SDK transport, so a session opened there is bound to that
 * run for its life and can never reach another. Every request is authenticated by {@link
 * BearerFilter} before the SDK reads it. Plain HTTP binds to a loopback address only (a bearer
 * token must not cross a network in clear text); with TLS it may bind any address of the host.
 */
public final class McpHttpServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;
  private final String host;
  private final McpTokens tokens;
  private final String version;
  private final String scheme;
  private final Map<String, McpToolServer> runs = new LinkedHashMap<>();
  private final List<McpSyncServer> served = new ArrayList<>();
  private URI base;

  /**
   * @param host a loopback address or name ({@code 127.0.0.1}, {@code ::1}, {@code localhost})
   * @param port the port, 0 for any free one
   */
  public McpHttpServer(String host, int port, McpTokens tokens, String version) {
    this(host, port, tokens, version, null);
  }

  /**
   * @param host a loopback address or name; with {@code tls}, any address of this host
   * @param tls the server's TLS context ({@link McpTls}), or null for plain HTTP on loopback
   */
  public McpHttpServer(String host, int port, McpTokens tokens, String version, SSLContext tls) {
    if (tls == null) {
      requireLoopback(host);
    }
    if (port < 0 || port > 65535) {
      throw RatchetException.contract("--http: port " + port + " is not in 0-65535");
    }
    this.host = host;
    this.tokens = tokens;
    this.version = version;
    this.server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    // No "Server: Jetty(version)" header: nothing for a scanner to match against advisories.
    http.setSendServerVersion(false);
    this.scheme = tls == null ? "http" : "https";
    if (tls == null) {
      this.connector = new ServerConnector(server, new HttpConnectionFactory(http));
    } else {
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setSslContext(tls);
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      // Clients reach the server by an address as often as by a name: the certificate is checked
      // by the client, not matched against SNI here.
      secure.setSniHostCheck(false);
      http.addCustomizer(secure);
      this.connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(ssl, HttpVersion.HTTP_1_1.asString()),
              new HttpConnectionFactory(http));
    }
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
  }

  /** Serves {@code tools} (one run's) at that run's endpoint; before {@link #start()}. */
  public McpHttpServer mount(String runId, McpToolServer tools) {
    if (runs.putIfAbsent(runId, tools) != null) {
      throw RatchetException.contract("--run-id: run " + runId + " is given twice");
    }
    return this;
  }

  /** Binds, starts, and returns the base URI (e.g. {@code http://127.0.0.1:8480/}). */
  public URI start() {
    try {
      connector.open();
      String h = host.contains(":") ? "[" + host + "]" : host;
      base = URI.create(scheme + "://" + h + ":" + connector.getLocalPort() + "/");
      ServletContextHandler ctx = new ServletContextHandler();
      ctx.setContextPath("/");
      DefaultServerTransportSecurityValidator validator =
          DefaultServerTransportSecurityValidator.builder()
              // No Origin is allowed: a browser page (DNS rebinding) is refused outright.
              .allowedHosts(List.of(h + ":*", "localhost:*", "127.0.0.1:*", "[::1]:*"))
              .build();
      for (Map.Entry<String, McpToolServer> e : runs.entrySet()) {
        String path = Endpoints.mcpPath(e.getKey());
        McpTransportContextExtractor<HttpServletRequest> context =
            req ->
                McpTransportContext.create(
                    Map.of("client", String.valueOf(req.getAttribute(BearerFilter.CLIENT))));
        HttpServletStreamableServerTransportProvider transport =
            HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(e.getValue().jsonMapper())
                .mcpEndpoint(path)
                .httpHeaderValidator(validator)
                .contextExtractor(context)
                .build();
        served.add(e.getValue().serve(transport, version));
        ServletHolder holder =
            new ServletHolder(
                new ProtocolSwitch(
                    transport,
                    ModernProtocol.servlet(e.getValue(), version, path, validator, context)));
        holder.setAsyncSupported(true);
        ctx.addServlet(holder, path);
      }
      ctx.addServlet(
          new ServletHolder(new ResourceMetadata(runs.keySet(), base)),
          Endpoints.METADATA_PREFIX + "*");
      FilterHolder auth = new FilterHolder(new BearerFilter(tokens, runs.keySet(), base));
      auth.setAsyncSupported(true);
      ctx.addFilter(auth, "/*", EnumSet.of(DispatcherType.REQUEST));
      server.setHandler(ctx);
      server.start();
      return base;
    } catch (RatchetException e) {
      throw e;
    } catch (Exception e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot start the MCP HTTP server on " + host, e);
    }
  }

  /** The base URI, once started. */
  public URI base() {
    return base;
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  @Override
  public void close() {
    for (McpSyncServer s : served) {
      try {
        s.closeGracefully();
      } catch (RuntimeException e) {
        // Closing sessions changes nothing a run committed.
      }
    }
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping the container changes nothing a run committed.
    }
  }

  /**
   * Refuses a host that is not a loopback address (or a name resolving only to loopback ones), with
   * a message naming {@code --http}; callers check before they open anything.
   */
  public static void requireLoopback(String host) {
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (!a.isLoopbackAddress()) {
          throw RatchetException.contract(
              "--http: "
                  + host
                  + " is not a loopback address; without TLS the server binds to loopback only"
                  + " (give --tls-keystore and --tls-password-file, or put a TLS-terminating"
                  + " proxy in front, to reach it remotely)");
        }
      }
    } catch (UnknownHostException e) {
      throw RatchetException.contract("--http: unknown host " + host);
    }
  }
}
