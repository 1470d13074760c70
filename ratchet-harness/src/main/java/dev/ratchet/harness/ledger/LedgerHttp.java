package dev.ratchet.harness.ledger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reference service's HTTP surface (docs/adapters.md lists every route and header). Writes are
 * POSTs carrying {@code Idempotency-Key} and the Ratchet binding headers; reads are GETs. Request
 * bodies over {@link #MAX_BODY} bytes are refused with 413 before they are parsed. Every request
 * must carry {@code Authorization: Bearer <client secret>} (401 otherwise), so no other local
 * client can write, or poison a run's fence with a high token; malformed headers and paths are a
 * 400, never a 500.
 */
final class LedgerHttp implements HttpHandler {
  public static final int MAX_BODY = 64 * 1024;
  private static final JsonLimits LIMITS = new JsonLimits(MAX_BODY, 16, 4096);

  /** The largest integer a header may carry: JSON's exact integers (2^53 - 1). */
  public static final long MAX_HEADER_INTEGER = (1L << 53) - 1;

  private final LedgerStore store;
  private final byte[] expectedAuthorization;
  private final AtomicInteger loseResponses = new AtomicInteger();
  private volatile CrashSeam crash = CrashSeam.NONE;

  /** Serves {@code store} to clients that present {@code clientSecret} as a bearer token. */
  public LedgerHttp(LedgerStore store, String clientSecret) {
    this.store = store;
    this.expectedAuthorization =
        ("Bearer " + Text.require("client secret", clientSecret, 512))
            .getBytes(StandardCharsets.UTF_8);
  }

  /** Fires {@link CrashPoint#ADAPTER_AFTER_EXTERNAL_COMMIT} after a write commits, unanswered. */
  public void crashSeam(CrashSeam seam) {
    this.crash = seam;
  }

  /** Fault for tests: the next {@code n} committed writes never answer (the connection drops). */
  public void loseNextResponses(int n) {
    loseResponses.set(n);
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      Reply reply;
      try {
        reply =
            authenticated(ex)
                ? route(ex)
                : Reply.error(401, "unauthorized", "a valid client secret is required");
      } catch (RatchetException | IllegalArgumentException e) {
        // A malformed header or path (an undecodable escape): the client's error, never a 500.
        reply =
            Reply.error(
                400,
                "invalid_request",
                e instanceof RatchetException ? e.getMessage() : "malformed request");
      } catch (RuntimeException e) {
        reply = Reply.error(500, "internal", e.getClass().getSimpleName());
      }
      if (reply == null) {
        return; // a lost response: close the exchange without a word
      }
      send(ex, reply);
    }
  }

  /** Whether the request carries the client secret (compared in constant time). */
  private boolean authenticated(HttpExchange ex) {
    String given = ex.getRequestHeaders().getFirst("Authorization");
    return given != null
        && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
  }

  private Reply route(HttpExchange ex) throws IOException {
    String[] seg = segments(ex.getRequestURI().getRawPath());
    String method = ex.getRequestMethod();
    if (seg.length < 2 || !seg[0].equals("v1")) {
      return Reply.error(404, "not_found", "no such route");
    }
    if (method.equals("POST") && seg.length == 2 && seg[1].equals("orders")) {
      return write(ex, LedgerApi.CREATE_ORDER, "/v1/orders");
    }
    if (method.equals("POST") && seg.length == 2 && seg[1].equals("payments")) {
      return write(ex, LedgerApi.PAY_ORDER, "/v1/payments");
    }
    if (!method.equals("GET")) {
      return Reply.error(405, "method_not_allowed", method + " is not allowed here");
    }
    if (seg.length == 2 && seg[1].equals("state")) {
      return Reply.of(200, store.state());
    }
    if (seg.length == 3 && seg[1].equals("receipts")) {
      return store.receipt(Text.require("key", seg[2], 200));
    }
    if (seg.length == 3 && seg[1].equals("accounts")) {
      return store.account(seg[2]);
    }
    if (seg.length == 5 && seg[1].equals("accounts") && seg[3].equals("orders")) {
      return store.order(seg[2], seg[4]);
    }
    return Reply.error(404, "not_found", "no such route");
  }

  private Reply write(HttpExchange ex, String kind, String path) throws IOException {
    byte[] raw = readBounded(ex.getRequestBody());
    if (raw == null) {
      return Reply.error(
          413, "payload_too_large", "request bodies are limited to " + MAX_BODY + " bytes");
    }
    var h = ex.getRequestHeaders();
    String key = Text.require("Idempotency-Key", h.getFirst("Idempotency-Key"), 200);
    String digest = Text.requireHex64("Ratchet-Intent-Digest", h.getFirst("Ratchet-Intent-Digest"));
    String run = Text.require("Ratchet-Fence-Run", h.getFirst("Ratchet-Fence-Run"));
    long version = number("Ratchet-Fence-Version", h.getFirst("Ratchet-Fence-Version"), 1);
    String approval = h.getFirst("Ratchet-Approval-Fingerprint");
    String expires = h.getFirst("Ratchet-Approval-Expires-At");
    if ((approval == null) != (expires == null)) {
      throw RatchetException.contract("approval headers: fingerprint and expiry come together");
    }
    JsonValue body = Json.parse(raw, LIMITS);
    LedgerApi.validate(kind, body, "body");
    LedgerWrite w =
        new LedgerWrite(
            kind,
            path,
            key,
            digest,
            run,
            version,
            approval == null ? null : Text.requireHex64("Ratchet-Approval-Fingerprint", approval),
            expires == null ? null : number("Ratchet-Approval-Expires-At", expires, 0),
            (JsonObject) body);
    Reply r = store.write(w);
    if (r.status() == 201) {
      crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    }
    if (r.status() == 201 && loseResponses.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return null;
    }
    return r;
  }

  private static long number(String name, String v, long min) {
    try {
      long n = Long.parseLong(v == null ? "" : v);
      if (n >= min && n <= MAX_HEADER_INTEGER) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw RatchetException.contract(
        name + ": must be an integer from " + min + " to " + MAX_HEADER_INTEGER);
  }

  /** The body, or null when it exceeds {@link #MAX_BODY}. */
  private static byte[] readBounded(InputStream in) throws IOException {
    byte[] b = in.readNBytes(MAX_BODY + 1);
    return b.length > MAX_BODY ? null : b;
  }

  private static String[] segments(String rawPath) {
    String p = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
    String[] parts = p.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = URLDecoder.decode(parts[i], StandardCharsets.UTF_8);
    }
    return parts;
  }

  private static void send(HttpExchange ex, Reply r) throws IOException {
    byte[] bytes = Canonical.bytes(r.body());
    ex.getResponseHeaders().set("Content-Type", "application/json");
    for (Map.Entry<String, String> e : r.headers().entrySet()) {
      ex.getResponseHeaders().set(e.getKey(), e.getValue());
    }
    ex.sendResponseHeaders(r.status(), bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
