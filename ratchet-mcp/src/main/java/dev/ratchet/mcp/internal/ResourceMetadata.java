package dev.ratchet.mcp.internal;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * OAuth 2.0 protected resource metadata (RFC 9728) for each run's endpoint, as the MCP
 * authorization spec asks: the resource and that tokens go in the Authorization header. No
 * authorization server is named: tokens are issued out of band by the operator (ADR 0081).
 */
public final class ResourceMetadata extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final transient Set<String> runs;
  private final URI base;

  public ResourceMetadata(Set<String> runs, URI base) {
    this.runs = Set.copyOf(runs);
    this.base = base;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    Optional<String> run = Endpoints.runOfMetadata(req.getRequestURI());
    if (run.isEmpty() || !runs.contains(run.get())) {
      res.sendError(404);
      return;
    }
    JsonObject body =
        JsonObject.builder()
            .put("resource", base.resolve(Endpoints.mcpPath(run.get())).toString())
            .put("bearer_methods_supported", JsonArray.of(new JsonString("header")))
            .put("resource_name", "Ratchet run " + run.get())
            .build();
    res.setContentType("application/json");
    res.getOutputStream().write(Canonical.string(body).getBytes(StandardCharsets.UTF_8));
  }
}
