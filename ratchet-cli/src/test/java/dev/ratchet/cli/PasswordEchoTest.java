package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.seam.Seams;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: a password inside a PostgreSQL URL ({@code user:PW@} or {@code ?password=}) is never
 * echoed — not by a store that cannot be opened, a malformed store spec, a usage error, or a hint.
 */
class PasswordEchoTest {
  private static final String PW = "S3cretPassw0rd";

  @TempDir Path dir;

  private String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.execute(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Services.standard());
    return new String[] {
      Integer.toString(exit),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  private Path home() {
    Path home = dir.resolve("home");
    if (java.nio.file.Files.exists(home)) {
      return home;
    }
    KeyFiles.create(home.resolve("keys/ckpt-1.key"), Seams.secureEntropy());
    KeyFiles.activate(home.resolve("keys"), "ckpt-1");
    return home;
  }

  /** Since issue 36 such a URL is refused before anything opens, still without echoing it. */
  @Test
  void aStoreUrlWithAPasswordIsRefusedWithoutEchoingIt() {
    Path home = home();
    for (String url :
        new String[] {
          "jdbc:postgresql://alice:" + PW + "@127.0.0.1:1/nodb",
          "jdbc:postgresql://127.0.0.1:1/nodb?user=alice&password=" + PW,
        }) {
      String[] r = run("status", "--home", home.toString(), "--store", url);
      assertThat(r[0]).as(r[2]).isEqualTo("2");
      assertThat(r[1] + r[2]).contains("carries a password").doesNotContain(PW);
    }
  }

  @Test
  void malformedSpecsAndUsageErrorsDoNotEchoThePassword() {
    String[] spec =
        run("status", "--home", home().toString(), "--store", "postgres://a:" + PW + "@h/db");
    assertThat(spec[0]).isEqualTo("2");
    assertThat(spec[2]).contains("is not a store").contains("a:***@h").doesNotContain(PW);
    String[] usage =
        run(
            "status",
            "--home",
            home().toString(),
            "--bogus=jdbc:postgresql://a:" + PW + "@h/db?password=" + PW);
    assertThat(usage[0]).isEqualTo("2");
    assertThat(usage[2]).contains("error [usage]").doesNotContain(PW);
  }
}
