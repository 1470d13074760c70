package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.ConsoleLauncher;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D30: browsers sign only in a secure context, so the console serves plain HTTP on loopback only;
 * any other bind address needs a configured certificate (HTTPS), else it refuses to start.
 */
class ConsoleTlsTest {
  private static final char[] PASSWORD = "changeit-console".toCharArray();

  @TempDir Path dir;

  private ConsoleLauncher.Request request(
      ConsoleFixture f, InetSocketAddress bind, ConsoleLauncher.Tls tls) {
    return new ConsoleLauncher.Request(
        f.services,
        new dev.ratchet.ops.Settings(f.home, null, null, null, null, null, null),
        bind,
        tls,
        ConsoleLauncher.Request.DEFAULT_SESSION_TTL,
        ConsoleLauncher.Request.DEFAULT_PREVIEW_TTL,
        new PrintWriter(new StringWriter()));
  }

  @Test
  void aNonLoopbackAddressWithoutACertificateIsRefusedBeforeListening() throws Exception {
    try (ConsoleFixture f = new ConsoleFixture(dir)) {
      InetSocketAddress any = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0);
      assertThatThrownBy(() -> ConsoleServer.start(request(f, any, null), null))
          .isInstanceOfSatisfying(
              RatchetException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
                assertThat(e.getMessage())
                    .contains("--bind: 0.0.0.0 is not a loopback address")
                    .contains("--tls-keystore")
                    .contains(ConsoleLauncher.Tls.PASSWORD_ENV);
              });
    }
  }

  @Test
  void withACertificateItServesHttpsAndTheSessionCookieIsSecure() throws Exception {
    Path keystore = dir.resolve("console.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-keystore",
                keystore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                new String(PASSWORD),
                "-alias",
                "console",
                "-keyalg",
                "EC",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2")
            .redirectErrorStream(true)
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue())
        .as(new String(keytool.getInputStream().readAllBytes()))
        .isZero();

    try (ConsoleFixture f = new ConsoleFixture(dir.resolve("f"));
        ConsoleServer https =
            ConsoleServer.start(
                request(
                    f,
                    new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0),
                    new ConsoleLauncher.Tls(keystore, PASSWORD)),
                null)) {
      assertThat(https.url()).startsWith("https://127.0.0.1:");
      HttpResponse<String> login =
          client(keystore)
              .send(
                  HttpRequest.newBuilder(URI.create(https.url())).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(login.statusCode()).isEqualTo(303);
      assertThat(login.headers().firstValue("Set-Cookie").orElseThrow())
          .contains("HttpOnly")
          .contains("Secure");
      // Plain HTTP on that port gets no page.
      assertThatThrownBy(
              () ->
                  HttpClient.newHttpClient()
                      .send(
                          HttpRequest.newBuilder(
                                  URI.create("http://127.0.0.1:" + https.address().getPort() + "/"))
                              .build(),
                          HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(java.io.IOException.class);
    }
  }

  private static HttpClient client(Path keystore) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      trust.load(in, PASSWORD);
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ctx).build();
  }
}
