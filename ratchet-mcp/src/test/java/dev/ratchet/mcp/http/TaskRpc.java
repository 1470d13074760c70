package dev.ratchet.mcp.http;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw client of protocol 2026-07-28 with the tasks extension (the SDK's clients have no tasks
 * support): JSON-RPC requests carrying the per-request metadata the revision requires, and the
 * extension in the client's capabilities when asked.
 */
public final class TaskRpc {
  public static final String VERSION = "2026-07-28";
  private final URI endpoint;
  private final String token;
  private final HttpClient http = HttpClient.newHttpClient();
  private final AtomicLong ids = new AtomicLong();

  public TaskRpc(URI endpoint, String token) {
    this.endpoint = endpoint;
    this.token = token;
  }

  /** Sends {@code method} with {@code params}; {@code name} is the routing header's value. */
  public JsonObject call(String method, String name, JsonObject params, boolean tasks)
      throws Exception {
    JsonObject.Builder caps = JsonObject.builder();
    if (tasks) {
      caps.put(
          "extensions",
          JsonObject.builder().put("io.modelcontextprotocol/tasks", JsonObject.EMPTY).build());
    }
    JsonObject meta =
        JsonObject.builder()
            .put("io.modelcontextprotocol/protocolVersion", VERSION)
            .put("io.modelcontextprotocol/clientCapabilities", caps.build())
            .put(
                "io.modelcontextprotocol/clientInfo",
                JsonObject.builder().put("name", "task-rpc").put("version", "1").build())
            .build();
    JsonObject body =
        JsonObject.builder()
            .put("jsonrpc", "2.0")
            .put("id", ids.incrementAndGet())
            .put("method", method)
            .put("params", params.with("_meta", meta))
            .build();
    HttpRequest.Builder b =
        HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + token)
            .header("MCP-Protocol-Version", VERSION)
            .header("Mcp-Method", method)
            .POST(HttpRequest.BodyPublishers.ofString(Canonical.string(body)));
    if (name != null) {
      b.header("Mcp-Name", name);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    // A JSON-RPC error may come with a 4xx status: its body is still the response.
    if (r.statusCode() != 200 && !r.body().startsWith("{")) {
      throw new AssertionError("HTTP " + r.statusCode() + ": " + r.body());
    }
    return (JsonObject) Json.parse(r.body());
  }

  /** The response's result; an error response fails the test with the error. */
  public JsonObject result(JsonObject response) {
    return (JsonObject)
        response
            .get("result")
            .orElseThrow(() -> new AssertionError("an error response: " + response));
  }
}
