package dev.ratchet.browser.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where the browser may go (D35): one origin (scheme, host and port of the service behind the
 * pages) and path prefixes on it. Anything else — another origin, another scheme ({@code file:},
 * {@code data:} documents, {@code ftp:}), a path outside the prefixes — is refused. Requests to the
 * origin carry {@code headers} (the service's client credential), added by interception so that no
 * page script can read them.
 */
public record UrlRules(URI origin, List<String> pathPrefixes, Map<String, String> headers) {
  public UrlRules {
    Objects.requireNonNull(origin, "origin");
    if (!("http".equals(origin.getScheme()) || "https".equals(origin.getScheme()))
        || origin.getHost() == null
        || origin.getRawUserInfo() != null) {
      throw new IllegalArgumentException("origin must be an http(s) URL without user info");
    }
    pathPrefixes = List.copyOf(pathPrefixes);
    for (String p : pathPrefixes) {
      if (!p.startsWith("/")) {
        throw new IllegalArgumentException("path prefix '" + p + "' must start with '/'");
      }
    }
    headers = Map.copyOf(headers);
  }

  /** Whether {@code url} is on the origin and under one of the prefixes. */
  public boolean allows(String url) {
    URI u;
    try {
      u = new URI(url);
    } catch (URISyntaxException e) {
      return false;
    }
    if (!sameOrigin(u)) {
      return false;
    }
    String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
    if (path.contains("/../") || path.endsWith("/..") || path.contains("/./")) {
      return false;
    }
    return pathPrefixes.stream().anyMatch(path::startsWith);
  }

  /** Whether {@code u} has exactly the origin's scheme, host and port. */
  public boolean sameOrigin(URI u) {
    return origin.getScheme().equalsIgnoreCase(String.valueOf(u.getScheme()))
        && origin.getHost().equalsIgnoreCase(String.valueOf(u.getHost()))
        && port(origin) == port(u)
        && u.getRawUserInfo() == null;
  }

  /** The absolute URL of {@code path} on the origin. */
  public String url(String path) {
    return origin.resolve(path).toString();
  }

  private static int port(URI u) {
    if (u.getPort() != -1) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }
}
