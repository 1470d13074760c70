package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.seam.Seams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 5 (D30): credentials come only from the environment. A password inside a
 * PostgreSQL store URL — user info or a {@code password=} parameter — on the command line or in the
 * home's {@code ratchet.properties} is refused (exit 2) with the variable to use instead, before
 * anything is opened or written. The URLs name the real test database (trust authentication), so
 * without the refusal the commands would connect and succeed.
 */
class StorePasswordRefusedTest {
  private static final String PW = "Pa55word-in-url";
  private static final List<String> URLS =
      List.of(
          "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&password=" + PW,
          "jdbc:postgresql://postgres:" + PW + "@127.0.0.1:5432/test",
          "jdbc:postgresql://127.0.0.1:5432/test?sslmode=disable&password="
              + PW
              + "&user=postgres");

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
    if (!Files.exists(home)) {
      KeyFiles.create(home.resolve("keys/ckpt-1.key"), Seams.secureEntropy());
      KeyFiles.activate(home.resolve("keys"), "ckpt-1");
    }
    return home;
  }

  private static List<String> files(Path home) throws IOException {
    try (Stream<Path> s = Files.walk(home)) {
      return s.map(Path::toString).sorted().toList();
    }
  }

  @Test
  void aPasswordInAStoreUrlOnTheCommandLineIsRefusedNamingTheVariable() throws IOException {
    Path home = home();
    List<String> before = files(home);
    for (String url : URLS) {
      for (String command : new String[] {"status", "db"}) {
        String[] r =
            command.equals("db")
                ? run("db", "init", "--home", home.toString(), "--store", url)
                : run("status", "--home", home.toString(), "--store", url);
        assertThat(r[0]).as(url + ": " + r[2]).isEqualTo("2");
        assertThat(r[2])
            .contains("--store")
            .contains("carries a password")
            .contains("RATCHET_PG_PASSWORD")
            .doesNotContain(PW);
        assertThat(r[1]).doesNotContain(PW);
      }
    }
    assertThat(files(home)).as("nothing written").isEqualTo(before);
  }

  @Test
  void aPasswordInTheHomesPropertiesFileIsRefusedNamingTheFileAndTheVariable() throws IOException {
    Path home = home();
    for (String url : URLS) {
      Files.writeString(home.resolve("ratchet.properties"), "store=" + url + "\n");
      List<String> before = files(home);
      String[] r = run("status", "--home", home.toString());
      assertThat(r[0]).as(r[2]).isEqualTo("2");
      assertThat(r[2])
          .contains("ratchet.properties")
          .contains("RATCHET_PG_PASSWORD")
          .doesNotContain(PW);
      assertThat(files(home)).as("nothing written").isEqualTo(before);
    }
  }

  @Test
  void theSameUrlWithoutAPasswordStillConnects() {
    // The control: the database is reachable, so the refusals above are the password's doing.
    String[] r =
        run(
            "status",
            "--home",
            home().toString(),
            "--store",
            "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    assertThat(r[2]).doesNotContain("carries a password");
    // Connected: either a store is there (0) or the schema is not one (5), never a refusal (2).
    if (!r[0].equals("0")) {
      assertThat(r[0]).as(r[2]).isEqualTo("5");
      assertThat(r[2]).contains("is not an initialised Ratchet store");
    }
  }
}
