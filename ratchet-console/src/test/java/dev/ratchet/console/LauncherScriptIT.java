package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: README.md's {@code ./ratchet console} works as written. Runs after {@code package} (the
 * {@code packaged} surefire execution), so the launcher script finds ratchet-console.jar fresh and
 * starts it; the test reads the one-time login address it prints and fetches it: a session cookie
 * and the runs page. {@code --port 0} is the only addition, so that parallel builds never collide
 * on the default port; the home is a fresh directory (the working directory's {@code .ratchet}).
 */
class LauncherScriptIT {
  private static final String OPEN = "Ratchet console: open ";

  @TempDir Path cwd;

  @Test
  void theReadmesConsoleCommandStartsTheConsoleAndServesItsLoginPage() throws Exception {
    Path script = Path.of("..", "ratchet").toAbsolutePath().normalize();
    assertThat(script).isExecutable();
    ProcessBuilder pb =
        new ProcessBuilder(script.toString(), "console", "--port", "0").directory(cwd.toFile());
    pb.redirectError(cwd.resolve("console.err").toFile());
    Process console = pb.start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(console.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<String> first =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(OPEN)) {
                      return line.substring(OPEN.length()).strip();
                    }
                  }
                  return null;
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      String login = first.get(180, TimeUnit.SECONDS);
      assertThat(login)
          .as("stderr: %s", Files.readString(cwd.resolve("console.err")))
          .matches("http://127\\.0\\.0\\.1:\\d+/login\\?code=[0-9a-f]{64}");

      HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
      HttpResponse<String> in =
          http.send(
              HttpRequest.newBuilder(URI.create(login)).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(in.statusCode()).isEqualTo(303);
      assertThat(in.headers().firstValue("Location")).contains("/");
      String cookie = in.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0].strip();
      assertThat(cookie).startsWith("ratchet_session=");

      URI runs = URI.create(login.substring(0, login.indexOf("/login")) + "/");
      HttpResponse<String> page =
          http.send(
              HttpRequest.newBuilder(runs).header("Cookie", cookie).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.body()).contains("<title>").contains("Ratchet console");
      HttpResponse<String> anonymous =
          http.send(HttpRequest.newBuilder(runs).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(anonymous.statusCode()).as("no session, no page").isNotEqualTo(200);
    } finally {
      console.destroy();
      if (!console.waitFor(30, TimeUnit.SECONDS)) {
        console.destroyForcibly();
      }
    }
  }
}
