package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet mcp --http} with TLS (a PKCS#12 keystore made by the JDK's keytool): the endpoint
 * speaks HTTPS, bearer checks are unchanged, plain HTTP to it fails; a bad password is a clear
 * error that does not show the password; without TLS a non-loopback address is refused.
 */
class McpTlsTest {
  private static final String PASSWORD = "correct horse battery staple";
  @TempDir static Path shared;
  private static Path keystore;
  @TempDir Path dir;
  private McpHttpServer http;
  private McpToolServer tools;

  @AfterEach
  void tearDown() {
    if (http != null) {
      http.close();
    }
    if (tools != null) {
      tools.close();
    }
  }

  /** One keystore for the class: keytool is a JVM of its own. */
  private static synchronized Path keystore() throws Exception {
    if (keystore != null) {
      return keystore;
    }
    Path ks = shared.resolve("server.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "mcp",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                ks.toString(),
                "-storepass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    keystore = ks;
    return ks;
  }

  private static SSLContext trusting(Path ks) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PASSWORD.toCharArray());
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }

  private static HttpResponse<String> post(HttpClient client, URI uri, String token)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"tls\",\"version\":\"1\"}}}"));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theEndpointSpeaksHttpsWithTheSameBearerChecks() throws Exception {
    Path ks = keystore();
    Path pw = Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    RuntimeFixture f = RuntimeFixture.inMemory(43);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    dev.ratchet.Run run = f.ratchet("mcp-tls").start(task, "run-1", ws);
    RunAccess access = new HeldRun(run);
    tools =
        new McpToolServer(
            access,
            task,
            ws,
            new ServerSettings("run-1", "ratchet approve run-1 --approver NAME", null, false),
            f.entropy);
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    String token = tokens.issue("agent", List.of("run-1"), f.entropy, Instant.EPOCH);
    http =
        new McpHttpServer("127.0.0.1", 0, tokens, "test", McpTls.context(ks, pw))
            .mount("run-1", tools);
    URI base = http.start();
    assertThat(base.getScheme()).isEqualTo("https");
    URI endpoint = base.resolve("runs/run-1/mcp");

    HttpClient tls = HttpClient.newBuilder().sslContext(trusting(ks)).build();
    assertThat(post(tls, endpoint, null).statusCode()).isEqualTo(401);
    HttpResponse<String> ok = post(tls, endpoint, token);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertThat(ok.body()).contains("\"protocolVersion\":\"2025-11-25\"");

    URI plain = URI.create("http://127.0.0.1:" + base.getPort() + "/runs/run-1/mcp");
    // Plain HTTP never reaches the endpoint: the answer is a TLS alert, not an HTTP response.
    assertThatThrownBy(() -> post(HttpClient.newHttpClient(), plain, token))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void aWrongPasswordIsAClearErrorWithoutThePassword() throws Exception {
    Path ks = keystore();
    Path wrong = Files.writeString(dir.resolve("wrong"), "not the password");
    assertThatThrownBy(() -> McpTls.context(ks, wrong))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("--tls-keystore")
        .hasMessageNotContaining("not the password");
    assertThatThrownBy(() -> McpTls.context(ks, dir.resolve("missing")))
        .hasMessageContaining("--tls-password-file");
  }

  @Test
  void withoutTlsANonLoopbackAddressIsRefused() {
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    assertThatThrownBy(() -> new McpHttpServer("0.0.0.0", 0, tokens, "test"))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("--http")
        .hasMessageContaining("--tls-keystore");
  }
}
