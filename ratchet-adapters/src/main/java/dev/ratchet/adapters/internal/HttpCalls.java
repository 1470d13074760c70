package dev.ratchet.adapters.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The HTTP client side: one request, a bounded response body, strict JSON. A transport failure is
 * {@code STORE_UNAVAILABLE} ("outcome unknown: look the key up"); a response over the size limit or
 * not a JSON object is {@code CONTRACT} (the service broke the protocol).
 */
public final class HttpCalls {
  /** Status, parsed JSON body and the one header the protocol reads. */
  public record Response(int status, JsonObject body, boolean replayed) {}

  private final HttpClient client;
  private final URI base;
  private final Duration timeout;
  private final int maxResponseBytes;
  private final String clientSecret;

  /** The client secret's bytes (a copy; empty for none), for redaction only. */
  public java.util.Map<String, byte[]> credentials() {
    return clientSecret == null
        ? java.util.Map.of()
        : java.util.Map.of(
            "service-client-secret",
            clientSecret.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** {@code clientSecret} (null for none) is sent on every request as a bearer token. */
  public HttpCalls(URI base, Duration timeout, int maxResponseBytes, String clientSecret) {
    this.base = base;
    this.clientSecret = clientSecret;
    this.timeout = timeout;
    this.maxResponseBytes = maxResponseBytes;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  public Response get(String path) {
    return send(HttpRequest.newBuilder(resolve(path)).GET(), "GET " + path);
  }

  public Response post(String path, byte[] body, Map<String, String> headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(resolve(path))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .header("Content-Type", "application/json");
    headers.forEach(b::header);
    return send(b, "POST " + path);
  }

  private URI resolve(String path) {
    return URI.create(base.toString().replaceAll("/+$", "") + path);
  }

  private Response send(HttpRequest.Builder b, String what) {
    HttpResponse<InputStream> resp;
    try {
      if (clientSecret != null) {
        b.header("Authorization", "Bearer " + clientSecret);
      }
      resp = client.send(b.timeout(timeout).build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          what
              + ": no answer from the service ("
              + e.getClass().getSimpleName()
              + "); the outcome"
              + " is unknown until the key is looked up",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, what + ": interrupted", e);
    }
    byte[] raw;
    try (InputStream in = resp.body()) {
      raw = in.readNBytes(maxResponseBytes + 1);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, what + ": the answer was cut off; outcome unknown", e);
    }
    if (raw.length > maxResponseBytes) {
      throw RatchetException.contract(
          what + ": the service answered more than " + maxResponseBytes + " bytes");
    }
    JsonObject body;
    try {
      body =
          Fields.asObject(
              Json.parse(raw, new JsonLimits(maxResponseBytes, 32, maxResponseBytes)), "response");
    } catch (RatchetException e) {
      throw RatchetException.contract(
          what + ": status " + resp.statusCode() + " with a malformed body: " + e.getMessage());
    }
    if (resp.statusCode() == 401) {
      throw new RatchetException(
          ErrorCode.PERMISSION,
          what
              + ": the service refused this client (401): it needs the service's client secret"
              + " (connect.client_secret_file, the file 'serve-ledger' names)");
    }
    boolean replayed = "true".equals(resp.headers().firstValue("Idempotent-Replayed").orElse(""));
    return new Response(resp.statusCode(), body, replayed);
  }
}
