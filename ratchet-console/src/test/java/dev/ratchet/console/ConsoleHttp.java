package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A signed-in browser on a {@link ConsoleFixture}'s console, as the action tests drive it: pages
 * fetched with the session and the cookie naming the key for the action, forms posted, and a
 * preview signed as the page's script signs it ({@link ConsoleFixture#signature}).
 */
final class ConsoleHttp {
  private final ConsoleFixture f;
  private final String token;
  private final HttpClient http = HttpClient.newHttpClient();

  ConsoleHttp(ConsoleFixture f, String token) {
    this.f = f;
    this.token = token;
  }

  HttpResponse<String> get(String path) throws Exception {
    return get(path, f.keyFor(path).keyId());
  }

  /** As a browser holding the key {@code keyId} (one its role's trust root may not hold). */
  HttpResponse<String> get(String path, String keyId) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Authorization", "Bearer " + token)
            .header("Cookie", Actions.SIGNER_COOKIE + "=" + keyId)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, String form) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Signs {@code preview} in the browser and posts it to {@code path} with its CSRF token. */
  HttpResponse<String> sign(String path, String preview) throws Exception {
    return post(
        path,
        "preview="
            + field(preview, "preview")
            + "&csrf="
            + field(preview, "csrf")
            + f.signature(preview));
  }

  static String field(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as(name + " in " + html).isTrue();
    return m.group(1);
  }

  /** The payload a preview shows, as its text. */
  static String payload(String html) {
    Matcher m = Pattern.compile("<pre id=\"payload\"[^>]*>([^<]+)</pre>").matcher(html);
    assertThat(m.find()).as("payload in " + html).isTrue();
    return m.group(1).replace("&quot;", "\"");
  }
}
