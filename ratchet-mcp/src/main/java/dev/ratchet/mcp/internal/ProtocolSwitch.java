package dev.ratchet.mcp.internal;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * One run's endpoint for both protocol revisions: a request whose {@code MCP-Protocol-Version}
 * header names 2026-07-28 or later goes to the newer stack, every other one (an {@code initialize}
 * of 2025-11-25 carries no header; later requests name their revision) to the legacy stack.
 */
public final class ProtocolSwitch extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final HttpServlet legacy;
  private final HttpServlet modern;

  public ProtocolSwitch(HttpServlet legacy, HttpServlet modern) {
    this.legacy = legacy;
    this.modern = modern;
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    legacy.init(config);
    modern.init(config);
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res)
      throws ServletException, IOException {
    (ModernProtocol.speaksModern(req) ? modern : legacy).service(req, res);
  }

  @Override
  public void destroy() {
    legacy.destroy();
    modern.destroy();
  }
}
