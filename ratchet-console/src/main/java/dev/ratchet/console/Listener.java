package dev.ratchet.console;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.ConsoleLauncher;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Where the console listens (D30): WebCrypto signs only in a secure context, so plain HTTP is
 * served on a loopback address only; any other bind address needs a configured certificate (HTTPS),
 * else the console refuses to start.
 */
final class Listener {
  private Listener() {}

  static HttpServer open(ConsoleLauncher.Request config) {
    InetSocketAddress bind = config.bind();
    if (config.tls() == null && !bind.getAddress().isLoopbackAddress()) {
      throw RatchetException.contract(
          "--bind: "
              + bind.getAddress().getHostAddress()
              + " is not a loopback address: the console serves plain HTTP on loopback only"
              + " (browsers sign only in a secure context); give --tls-keystore FILE.p12 (its"
              + " password in "
              + ConsoleLauncher.Tls.PASSWORD_ENV
              + ") to serve HTTPS there");
    }
    try {
      if (config.tls() == null) {
        return HttpServer.create(bind, 0);
      }
      HttpsServer https = HttpsServer.create(bind, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(context(config.tls())));
      return https;
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.CONTRACT, "--port/--bind: cannot listen on " + bind + ": " + e.getMessage(), e);
    }
  }

  private static SSLContext context(ConsoleLauncher.Tls tls) {
    try (InputStream in = Files.newInputStream(tls.keystore())) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, tls.password());
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, tls.password());
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      // The type only: a key store's messages may name its contents.
      throw RatchetException.contract(
          "--tls-keystore "
              + tls.keystore()
              + ": not a PKCS#12 key store this password opens ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }
}
