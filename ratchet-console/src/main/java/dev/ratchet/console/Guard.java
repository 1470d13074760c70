package dev.ratchet.console;

import com.sun.net.httpserver.HttpExchange;
import dev.ratchet.seam.Entropy;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/**
 * The console's two secrets (D26): the session token every request must carry (query on the first
 * visit, then an HttpOnly SameSite=Strict cookie, or a bearer header for API clients), and the CSRF
 * token every state-changing request must echo in its form or header. Both are 256 random bits,
 * compared in constant time, never logged.
 */
final class Guard {
  static final String COOKIE = "ratchet_session";
  static final String CSRF_FIELD = "csrf";
  static final String CSRF_HEADER = "X-CSRF-Token";

  private final byte[] session;
  private final byte[] csrf;

  Guard(Entropy entropy) {
    this.session = (entropy.hex128() + entropy.hex128()).getBytes(StandardCharsets.US_ASCII);
    this.csrf = (entropy.hex128() + entropy.hex128()).getBytes(StandardCharsets.US_ASCII);
  }

  String sessionToken() {
    return new String(session, StandardCharsets.US_ASCII);
  }

  String csrfToken() {
    return new String(csrf, StandardCharsets.US_ASCII);
  }

  /** True when the request carries the session token (cookie, bearer header or query). */
  boolean authenticated(HttpExchange x) {
    String auth = x.getRequestHeaders().getFirst("Authorization");
    if (auth != null && auth.startsWith("Bearer ") && same(auth.substring(7), session)) {
      return true;
    }
    String fromQuery = query(x).get("token");
    if (fromQuery != null && same(fromQuery, session)) {
      return true;
    }
    for (String header : x.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
      for (String part : header.split(";")) {
        String p = part.trim();
        if (p.startsWith(COOKIE + "=") && same(p.substring(COOKIE.length() + 1), session)) {
          return true;
        }
      }
    }
    return false;
  }

  /** True when a state-changing request echoes the CSRF token (form field or header). */
  boolean csrfOk(HttpExchange x, Map<String, String> form) {
    String header = x.getRequestHeaders().getFirst(CSRF_HEADER);
    String value = header != null ? header : form.get(CSRF_FIELD);
    return value != null && same(value, csrf);
  }

  /** The cookie that carries the session after the first visit. */
  String cookie() {
    return COOKIE + "=" + sessionToken() + "; Path=/; HttpOnly; SameSite=Strict";
  }

  private static boolean same(String given, byte[] expected) {
    return MessageDigest.isEqual(given.getBytes(StandardCharsets.US_ASCII), expected);
  }

  static Map<String, String> query(HttpExchange x) {
    return decode(x.getRequestURI().getRawQuery());
  }

  /** An application/x-www-form-urlencoded body or query as a map (last value wins). */
  static Map<String, String> decode(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }
}
