package dev.ratchet.mcp;

import java.util.Objects;

/**
 * What the MCP server tells its client beyond the tools themselves.
 *
 * @param runId the run the tools act in
 * @param approveCommand the command an operator runs to approve a waiting write, e.g. {@code
 *     ratchet approve run-1 --approver NAME}
 * @param consoleUrl the console's base URL (its approval page is linked), or null
 * @param openWorld whether the adapter reaches outside this host (a service), for {@code
 *     openWorldHint}
 */
public record ServerSettings(
    String runId, String approveCommand, String consoleUrl, boolean openWorld) {
  public ServerSettings {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(approveCommand, "approveCommand");
  }
}
