package dev.ratchet.mcp.internal;

import dev.ratchet.mcp.http.McpTokens;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * Every request to a run's endpoint ({@code /runs/<id>/mcp}) carries a bearer token scoped to that
 * run, or is refused before the SDK sees it: 401 with {@code WWW-Authenticate} (and the protected
 * resource metadata's address, RFC 9728) without a valid token, 403 for a token of other runs.
 * Nothing reaches a run, so a refused request changes nothing. The token is never logged.
 */
public final class BearerFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  /** The request attribute naming the authenticated client (for the transport context). */
  public static final String CLIENT = "dev.ratchet.mcp.client";

  private final transient McpTokens tokens;
  private final transient Set<String> runs;
  private final URI base;

  public BearerFilter(McpTokens tokens, Set<String> runs, URI base) {
    this.tokens = tokens;
    this.runs = Set.copyOf(runs);
    this.base = base;
  }

  @Override
  protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    String path = req.getRequestURI();
    if (path.startsWith(Endpoints.METADATA_PREFIX)) {
      chain.doFilter(req, res);
      return;
    }
    Optional<String> run = Endpoints.runOf(path);
    if (run.isEmpty()) {
      plain(res, 404, "no such endpoint: runs are served at /runs/<run-id>/mcp");
      return;
    }
    String metadata = base.resolve(Endpoints.metadataPath(run.get())).toString();
    String header = req.getHeader("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      res.setHeader(
          "WWW-Authenticate", "Bearer realm=\"ratchet\", resource_metadata=\"" + metadata + "\"");
      plain(res, 401, "a bearer token is required (ratchet mcp-token issue)");
      return;
    }
    Optional<McpTokens.Grant> grant = tokens.authenticate(header.substring(7).strip());
    if (grant.isEmpty()) {
      res.setHeader(
          "WWW-Authenticate",
          "Bearer realm=\"ratchet\", error=\"invalid_token\", resource_metadata=\""
              + metadata
              + "\"");
      plain(res, 401, "the bearer token is unknown or revoked");
      return;
    }
    if (!grant.get().allows(run.get())) {
      res.setHeader(
          "WWW-Authenticate",
          "Bearer realm=\"ratchet\", error=\"insufficient_scope\", resource_metadata=\""
              + metadata
              + "\"");
      plain(res, 403, "this token is not scoped to run " + run.get());
      return;
    }
    if (!runs.contains(run.get())) {
      plain(res, 404, "this server does not serve run " + run.get());
      return;
    }
    req.setAttribute(CLIENT, grant.get().client());
    chain.doFilter(req, res);
  }

  private static void plain(HttpServletResponse res, int status, String message)
      throws IOException {
    res.setStatus(status);
    res.setContentType("text/plain; charset=utf-8");
    res.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
