package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.Fence;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A hostile site on loopback: its form posts to another origin, its page redirects off-origin or to
 * a {@code file:} URL, its pages start downloads. The adapter refuses with {@code PERMISSION}; the
 * other origin never receives a request, the hostile site itself never receives a POST, no local
 * file's content reaches the run's evidence and no download lands in the browser's sandbox.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostilePageTest {
  private HttpServer site;
  private HttpServer elsewhere;
  private final List<String> siteRequests = new CopyOnWriteArrayList<>();
  private final List<String> elsewhereRequests = new CopyOnWriteArrayList<>();
  private final String download = "DOWNLOAD-" + UUID.randomUUID();
  private final String linked = "LINKED-" + UUID.randomUUID();
  private Path secret;
  private BrowserAdapter adapter;

  @BeforeAll
  void start() throws IOException {
    secret = Files.createTempFile("ratchet-hostile-", ".txt");
    Files.writeString(secret, "SECRET-" + UUID.randomUUID());
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
              } else if (path.equals("/web/to-file")) {
                ex.getResponseHeaders().set("Location", secret.toUri().toString());
                reply(ex, 302, "text/plain", "");
              } else if (path.equals("/web/to-passwd")) {
                ex.getResponseHeaders().set("Location", "file:///etc/passwd");
                reply(ex, 302, "text/plain", "");
              } else if (path.equals("/web/file-script")) {
                reply(ex, 200, "text/html", FILE_PAGE.replace("SECRET", secret.toUri().toString()));
              } else if (path.equals("/web/download")) {
                ex.getResponseHeaders()
                    .set("Content-Disposition", "attachment; filename=\"ratchet-evil.bin\"");
                reply(ex, 200, "application/octet-stream", download);
              } else if (path.equals("/web/download-link")) {
                reply(ex, 200, "text/html", LINK_PAGE);
              } else if (path.equals("/web/payload")) {
                reply(ex, 200, "text/plain", linked);
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
  void stop() throws IOException {
    Files.deleteIfExists(secret);
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

  @Test
  void aFileUrlIsRefusedAndNoLocalFileReachesTheEvidence() throws IOException {
    String content = Files.readString(secret);
    String passwd = Files.readAllLines(Path.of("/etc/passwd")).get(0); // bound into the sandbox
    for (String path : List.of("/web/to-file", "/web/to-passwd")) {
      assertThatThrownBy(() -> adapter.read("read_page", readArgs(path), FENCE))
          .as(path)
          .isInstanceOfSatisfying(
              RatchetException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION);
                assertThat(e.getMessage()).doesNotContain(content).doesNotContain(passwd);
              });
    }
    // A page that frames and script-navigates to file: stays itself; nothing local is read.
    JsonObject page = adapter.read("read_page", readArgs("/web/file-script"), FENCE);
    assertThat(page.get("url").orElseThrow().toString()).endsWith("/web/file-script\"");
    assertThat(page.toString()).contains("stay").doesNotContain(content).doesNotContain(passwd);
  }

  @Test
  void aDownloadIsRefusedAndNoFileLandsInTheSandbox() {
    // A page whose script clicks a <a download> link: the page is read, the download is not kept.
    JsonObject page = adapter.read("read_page", readArgs("/web/download-link"), FENCE);
    assertThat(page.toString()).contains("download link").doesNotContain(linked);
    // A page answered as an attachment: refused, never the tab's previous page's evidence.
    assertThatThrownBy(() -> adapter.read("read_page", readArgs("/web/download"), FENCE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
    assertThat(siteRequests).contains("GET /web/download", "GET /web/download-link");

    Path root = SandboxFiles.root();
    assertThat(root.resolve("tmp/profile/Default")).isDirectory(); // the scan sees the sandbox
    List<Path> files = SandboxFiles.writable(root);
    assertThat(files).isNotEmpty();
    assertThat(files)
        .noneMatch(f -> f.getFileName().toString().startsWith("ratchet-"))
        .noneMatch(f -> f.getFileName().toString().endsWith(".crdownload"))
        .noneMatch(f -> f.startsWith(root.resolve("tmp/Downloads")));
    // The attachment's bytes reach Chromium's HTTP cache like any response (tmpfs, gone with the
    // sandbox); outside that cache neither payload is written anywhere the browser can write.
    Path cache = root.resolve("tmp/profile/Default/Cache");
    assertThat(files)
        .filteredOn(f -> !f.startsWith(cache))
        .noneMatch(f -> SandboxFiles.contains(f, download) || SandboxFiles.contains(f, linked));
    // Nor on the host, where a browser outside the sandbox would save it.
    for (String name : List.of("ratchet-evil.bin", "ratchet-link.bin")) {
      assertThat(Path.of(System.getProperty("user.home"), "Downloads", name)).doesNotExist();
      assertThat(Path.of(System.getProperty("java.io.tmpdir"), name)).doesNotExist();
    }
  }

  private static JsonObject readArgs(String path) {
    return JsonObject.builder()
        .put("path", path)
        .put("elements", JsonArray.of(new JsonString("note")))
        .build();
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

  private static final Fence FENCE = new Fence("run-h", "w", 1);

  private static final String FILE_PAGE =
      "<html><body><p id='note'>stay</p>"
          + "<iframe src='file:///etc/passwd'></iframe><iframe src='SECRET'></iframe>"
          + "<script>location.href = 'SECRET';</script></body></html>";

  private static final String LINK_PAGE =
      "<html><body><p id='note'>download link</p>"
          + "<a id='dl' download='ratchet-link.bin' href='/web/payload'>get</a>"
          + "<script>document.getElementById('dl').click();</script></body></html>";

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
