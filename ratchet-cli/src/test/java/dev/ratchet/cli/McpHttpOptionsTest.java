package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.Services;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad {@code --http} and token input: a message naming the option, a non-zero exit, no write. */
class McpHttpOptionsTest {
  @TempDir Path dir;

  private record Out(int code, String out, String err) {}

  private Out run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.execute(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Services.standard());
    return new Out(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aNonLoopbackOrMalformedAddressIsRefusedBeforeAnythingIsOpened() {
    Path home = dir.resolve("home");
    String task = Path.of("../examples/http/acme-orders.json").toAbsolutePath().toString();
    for (String bad : new String[] {"192.0.2.1:8480", "0.0.0.0:0", "127.0.0.1:x", ":80", "70000"}) {
      Out r = run("mcp", task, "--http", bad, "--run-id", "r-1", "--home", home.toString());
      assertThat(r.code()).as(bad).isNotZero();
      assertThat(r.err()).as(bad).contains("--http");
      assertThat(home).as("nothing written for %s", bad).doesNotExist();
    }
    Out twice = run("mcp", task, "--run-id", "a", "--run-id", "b", "--home", home.toString());
    assertThat(twice.code()).isNotZero();
    assertThat(twice.err()).contains("--run-id").contains("stdio serves one run");
    assertThat(home).doesNotExist();
    // TLS needs both its options, and a keystore that opens; nothing is written otherwise.
    Path pw = dir.resolve("password");
    Out half =
        run(
            "mcp",
            task,
            "--http",
            "127.0.0.1:0",
            "--tls-keystore",
            "ks.p12",
            "--home",
            home.toString());
    assertThat(half.code()).isNotZero();
    assertThat(half.err()).contains("--tls-password-file");
    Out unreadable =
        run(
            "mcp",
            task,
            "--http",
            "0.0.0.0:0",
            "--tls-keystore",
            dir.resolve("none.p12").toString(),
            "--tls-password-file",
            pw.toString(),
            "--home",
            home.toString());
    assertThat(unreadable.code()).isNotZero();
    assertThat(unreadable.err()).contains("--tls-password-file");
    assertThat(home).doesNotExist();
  }

  @Test
  void tokensAreIssuedOnceListedWithoutSecretsAndRevoked() throws Exception {
    String home = dir.resolve("home").toString();
    Out issued = run("mcp-token", "issue", "--client", "bot", "--run", "r-1", "--home", home);
    assertThat(issued.code()).as(issued.err()).isZero();
    String token = issued.out().strip();
    assertThat(token).startsWith("rmcp_");
    assertThat(issued.err()).doesNotContain(token);
    Out again = run("mcp-token", "issue", "--client", "bot", "--run", "r-2", "--home", home);
    assertThat(again.code()).isNotZero();
    assertThat(again.err()).contains("--client").contains("already holds a token");
    Out listed = run("mcp-token", "list", "--home", home);
    assertThat(listed.out()).contains("bot").contains("r-1").doesNotContain(token);
    assertThat(Files.readString(dir.resolve("home/mcp-tokens/bot.json"))).doesNotContain(token);
    assertThat(run("mcp-token", "revoke", "bot", "--home", home).code()).isZero();
    assertThat(run("mcp-token", "revoke", "bot", "--home", home).code()).isNotZero();
    assertThat(run("mcp-token", "list", "--home", home).out()).doesNotContain("bot");
  }
}
