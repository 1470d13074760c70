package dev.ratchet.console;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Logs in as an operator's browser would: opens the one-time login address, keeps the cookie. */
final class Sessions {
  private Sessions() {}

  /** A fresh session token from {@code server}'s current login address. */
  static String login(ConsoleServer server) {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.url())).build(),
                  HttpResponse.BodyHandlers.ofString());
      String cookie =
          r.headers()
              .firstValue("Set-Cookie")
              .orElseThrow(() -> new IllegalStateException("login refused: " + r.statusCode()));
      return cookie.substring(Guard.COOKIE.length() + 1, cookie.indexOf(';'));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
