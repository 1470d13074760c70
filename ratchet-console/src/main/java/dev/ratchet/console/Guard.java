package dev.ratchet.console;

import com.sun.net.httpserver.HttpExchange;
import dev.ratchet.seam.Entropy;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The console's secrets (D26, D30). A one-time login code is printed on the terminal as an address
 * ({@code /login?code=…}); opening it starts a session: a fresh 256-bit token in an HttpOnly
 * SameSite=Strict cookie (or a bearer header for API clients) that expires after the session TTL,
 * and a new login code replaces the used one. The session token is never printed. Every
 * state-changing request must echo the CSRF token in its form or header. All are compared in
 * constant time and never logged.
 */
final class Guard {
  static final String COOKIE = "ratchet_session";
  static final String CSRF_FIELD = "csrf";
  static final String CSRF_HEADER = "X-CSRF-Token";

  /** Open sessions kept at most; a new login past it ends the oldest. */
  static final int MAX_SESSIONS = 16;

  private final Entropy entropy;
  private final InstantSource clock;
  private final Duration sessionTtl;
  private final byte[] csrf;
  private final Deque<Session> sessions = new ArrayDeque<>();
  private byte[] loginCode;

  private record Session(byte[] token, long expiresAtMs) {}

  Guard(Entropy entropy, InstantSource clock, Duration sessionTtl) {
    this.entropy = entropy;
    this.clock = clock;
    this.sessionTtl = sessionTtl;
    this.csrf = fresh();
    this.loginCode = fresh();
  }

  private byte[] fresh() {
    return (entropy.hex128() + entropy.hex128()).getBytes(StandardCharsets.US_ASCII);
  }

  /** The current one-time login code: printed on the terminal as a login address, nowhere else. */
  synchronized String loginCode() {
    return new String(loginCode, StandardCharsets.US_ASCII);
  }

  String csrfToken() {
    return new String(csrf, StandardCharsets.US_ASCII);
  }

  /**
   * Exchanges the one-time login code for a new session token; null when {@code code} is not the
   * current code. The code is used up either way it matches.
   */
  synchronized String login(String code) {
    if (code == null || !same(code, loginCode)) {
      return null;
    }
    loginCode = fresh();
    byte[] token = fresh();
    sessions.addLast(new Session(token, clock.millis() + sessionTtl.toMillis()));
    while (sessions.size() > MAX_SESSIONS) {
      sessions.removeFirst();
    }
    return new String(token, StandardCharsets.US_ASCII);
  }

  /** True when the request carries an unexpired session token (cookie or bearer header). */
  boolean authenticated(HttpExchange x) {
    String auth = x.getRequestHeaders().getFirst("Authorization");
    if (auth != null && auth.startsWith("Bearer ") && live(auth.substring(7))) {
      return true;
    }
    for (String header : x.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String part : header.split(";")) {
        String p = part.trim();
        if (p.startsWith(COOKIE + "=") && live(p.substring(COOKIE.length() + 1))) {
          return true;
        }
      }
    }
    return false;
  }

  private synchronized boolean live(String token) {
    long now = clock.millis();
    boolean found = false;
    for (Iterator<Session> i = sessions.iterator(); i.hasNext(); ) {
      Session s = i.next();
      if (s.expiresAtMs() <= now) {
        i.remove();
      } else if (same(token, s.token())) {
        found = true;
      }
    }
    return found;
  }

  /** The value of cookie {@code name} in the request, or null. */
  static String cookieValue(HttpExchange x, String name) {
    for (String header : x.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (String part : header.split(";")) {
        String p = part.trim();
        if (p.startsWith(name + "=")) {
          return p.substring(name.length() + 1);
        }
      }
    }
    return null;
  }

  /** True when a state-changing request echoes the CSRF token (form field or header). */
  boolean csrfOk(HttpExchange x, Map<String, String> form) {
    String header = x.getRequestHeaders().getFirst(CSRF_HEADER);
    String value = header != null ? header : form.get(CSRF_FIELD);
    return value != null && same(value, csrf);
  }

  /** The cookie that carries {@code token}, expiring with its session. */
  String cookie(String token, boolean secure) {
    return COOKIE
        + "="
        + token
        + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
        + sessionTtl.toSeconds()
        + (secure ? "; Secure" : "");
  }

  private static boolean same(String given, byte[] expected) {
    return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected);
  }

  static Map<String, String> query(HttpExchange x) {
    return decode(x.getRequestURI().getRawQuery());
  }

  /**
   * An application/x-www-form-urlencoded body or query as a map (last value wins); {@link
   * BadRequest} when a {@code %} escape is malformed.
   */
  static Map<String, String> decode(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(unescape(k), unescape(v));
    }
    return out;
  }

  private static String unescape(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequest("malformed %-escape in the query or form");
    }
  }
}
