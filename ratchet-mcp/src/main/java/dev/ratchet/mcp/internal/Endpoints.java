package dev.ratchet.mcp.internal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The addresses of {@code ratchet mcp --http}: one endpoint per run (ADR 0081). */
public final class Endpoints {
  public static final String METADATA_PREFIX = "/.well-known/oauth-protected-resource/";
  private static final Pattern RUN = Pattern.compile("/runs/([A-Za-z0-9._-]{1,64})/mcp");

  private Endpoints() {}

  /** The MCP endpoint of {@code runId}. */
  public static String mcpPath(String runId) {
    return "/runs/" + runId + "/mcp";
  }

  /** Its protected resource metadata (RFC 9728: the well-known prefix before the path). */
  public static String metadataPath(String runId) {
    return METADATA_PREFIX + "runs/" + runId + "/mcp";
  }

  /** The run an endpoint path names, if it is one. */
  public static Optional<String> runOf(String path) {
    Matcher m = RUN.matcher(path);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The run a metadata path names, if it is one. */
  public static Optional<String> runOfMetadata(String path) {
    return path.startsWith(METADATA_PREFIX)
        ? runOf(path.substring(METADATA_PREFIX.length() - 1))
        : Optional.empty();
  }
}
