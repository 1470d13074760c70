package dev.ratchet.mcp.http;

import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * TLS for {@code ratchet mcp --http} (ADR 0081): the server's certificate and key from a PKCS#12
 * keystore, its password from a file (never an argument: a command line is visible to every local
 * user). The password is held as bytes and characters only while the keystore is opened, then
 * cleared; it is never put in a message.
 */
public final class McpTls {
  private McpTls() {}

  /** The server's TLS context from {@code keystore} opened with the password in {@code file}. */
  public static SSLContext context(Path keystore, Path passwordFile) {
    byte[] raw;
    try {
      raw = Files.readAllBytes(passwordFile);
    } catch (IOException e) {
      throw RatchetException.contract(
          "--tls-password-file: cannot read "
              + passwordFile
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
    int end = raw.length;
    while (end > 0 && (raw[end - 1] == '\n' || raw[end - 1] == '\r')) {
      end--; // a trailing newline is not part of the password
    }
    CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(raw, 0, end));
    char[] password = new char[chars.remaining()];
    chars.get(password);
    Arrays.fill(raw, (byte) 0);
    Arrays.fill(chars.array(), '\0');
    try (InputStream in = Files.newInputStream(keystore)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password);
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw RatchetException.contract(
          "--tls-keystore: "
              + keystore
              + " must be a readable PKCS#12 keystore holding the server's key and certificate,"
              + " opened by the password in --tls-password-file ("
              + e.getClass().getSimpleName()
              + ")");
    } finally {
      Arrays.fill(password, '\0');
    }
  }
}
