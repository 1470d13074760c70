package dev.ratchet.browser.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sandboxed browser against two real loopback servers: the allowed origin sees the credential
 * header added by interception; the other origin (a different port) is never reached; no process of
 * the sandbox runs as root on the host.
 */
class ChromiumTest {
  private HttpServer allowed;
  private HttpServer other;
  private final AtomicInteger otherHits = new AtomicInteger();
  private final AtomicInteger authorized = new AtomicInteger();

  @BeforeEach
  void serve() throws Exception {
    other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    other.createContext(
        "/",
        ex -> {
          otherHits.incrementAndGet();
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    other.start();
    int otherPort = other.getAddress().getPort();
    allowed = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    allowed.createContext(
        "/",
        ex -> {
          boolean ok = "Bearer s3cret".equals(ex.getRequestHeaders().getFirst("Authorization"));
          if (ok) {
            authorized.incrementAndGet();
          }
          String html =
              "<html><head><title>"
                  + (ok ? "welcome" : "no credential")
                  + "</title></head><body><img src='http://127.0.0.1:"
                  + otherPort
                  + "/pixel.png'><p id='x'>hello</p></body></html>";
          byte[] b = html.getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          ex.sendResponseHeaders(200, b.length);
          ex.getResponseBody().write(b);
          ex.close();
        });
    allowed.start();
  }

  @AfterEach
  void stop() {
    allowed.stop(0);
    other.stop(0);
  }

  @Test
  void onlyTheTaskOriginIsReachedAndItGetsTheCredentialHeader() throws Exception {
    URI origin = URI.create("http://127.0.0.1:" + allowed.getAddress().getPort());
    UrlRules rules =
        new UrlRules(origin, List.of("/web/"), Map.of("Authorization", "Bearer s3cret"));
    try (Chromium c = Chromium.start(rules, java.time.Duration.ofSeconds(20))) {
      c.driver().get(rules.url("/web/page"));
      assertThat(c.driver().getTitle()).isEqualTo("welcome");
      assertThat(authorized.get()).isEqualTo(1);
      assertThat(otherHits.get()).isZero();
      assertThat(c.interceptor().refused()).anyMatch(u -> u.endsWith("/pixel.png"));
      for (long pid : c.pids()) {
        Path status = Path.of("/proc/" + pid + "/status");
        if (Files.exists(status)) {
          String uid =
              Files.readAllLines(status).stream()
                  .filter(l -> l.startsWith("Uid:"))
                  .findFirst()
                  .orElse("Uid: ?");
          assertThat(uid.split("\\s+")[1]).as("pid %d", pid).isNotEqualTo("0");
        }
      }
    }
  }
}
