package dev.ratchet.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schema lives in versioned {@code .sql} resources (D28: a released migration never changes).
 * The digests below pin what each released version executes, statement by statement, as the Java
 * strings of the first release held them: a new migration adds a line here, an edit to a released
 * one fails this test.
 */
class SchemaResourcesTest {
  private static final Map<String, List<String>> RELEASED =
      Map.of(
          "sqlite",
          List.of(
              "cabe3afab1a3a2316ae0faf24c367dbc840ea8164b401ef79cfd3d3641329442",
              "5a52f2c3ac17f2193312a5042264c21ab8b03760f76427fa269ab60f4e1024ab",
              "9f4a38fa348f98aec9bc91cf8369af097f4c0e57c13fb09ead79a2a11290e444",
              "c82439b96e99b05b6ba7f95efc32f1d6156f3f77b50c26ee039ba0f1b14b7513",
              "d6ec28f83473990ca1446eb04179b964433f567b2a693c0d4fd552fbfea05057",
              "c68d652939d31a0a5b3ab82af9dcd95305d2c2a74d2b2c6f154599b5a78b0b87",
              "f41e5332ac84ff039149c1e8cd3a1296343d20397d55c32db4cffedf64938e77",
              "39e42422a3cbc2f89fecade6d673bc2cf9b80e953aeda36ae0c0b43fc79ce9d0",
              "a401b3afaa639197aabef8b141f22da11650cf234d3088d393f3675f388355c6",
              "cb0e86f1530778966b9a839d4d93d778024ef00e102453801d28ecafcae09408",
              "ab7e0bd5e13f0edd35fabaeebcf334fdd17c66359f5c11876de324503db35b3c",
              "405c437544098313b7817e9df4b7f4bb7d18dcb709da5123ccc3dfcb42e6d362"),
          "postgresql",
          List.of(
              "05dfd6a646ab15ed2faf6a3f9acf9b7c45dbfd97ef647cd92ede5713bfdea96d",
              "8e0e00a0a1ecd2e7df20b6d46d4c9b4b11de5d1ee1fb57ca33651c77f0910efb",
              "9ff77a38668423a0ab2836b3317b5e4d43a47038b62e0cfbf9aa76b9aa2b67eb",
              "462a0b380bd0db4a1880ecdff031dbcb78c505f20b34188c4db362d6f06f2a59",
              "285f90e705829306e889a9996338a69e8ef5b0d324cc7e192103dcf7a7cf0bc8",
              "ddd23ff0c8c4f4f4a0b2d03dd8b3780b2cb56a525b039835a116c95a940ae6b2",
              "6cb6ed77182f2b0023bb9f889465a5bbc581c8e5640b426807e5df8f891c76b1",
              "6048bb1f7f9ea75b57c1e24db3b0126c1806dd7f858b1f4201c5bd21b12549ab",
              "0c1d48e3088118f3ba8148ab6847f1d169bfa71e8930064365677718697022cb",
              "c95fe33e245f1f065b5d44eda91824e75ee1b48748e68c77ea43914dfaced8a3",
              "7a6b9f18c52f7b1897010c804da7946d3e130f79fe772e2050275ec1f5b24cf3",
              "405c437544098313b7817e9df4b7f4bb7d18dcb709da5123ccc3dfcb42e6d362"));

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void releasedMigrationsExecuteExactlyTheStatementsTheyWereReleasedWith(String dialect) {
    List<Migration> migrations = SchemaResources.load(dialect, Map.of());
    List<String> pinned = RELEASED.get(dialect);
    assertThat(migrations.size()).isGreaterThanOrEqualTo(pinned.size());
    for (int i = 0; i < pinned.size(); i++) {
      assertThat(digest(migrations.get(i))).as("%s V%d", dialect, i + 1).isEqualTo(pinned.get(i));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void everySqlFileIsListedInOrderAndNumberedFromOne(String dialect)
      throws IOException, URISyntaxException {
    Path dir =
        Path.of(SchemaResources.class.getResource("/dev/ratchet/jdbc/schema/" + dialect).toURI());
    List<String> listed =
        Files.readAllLines(dir.resolve("migrations.txt")).stream()
            .filter(l -> !l.isBlank())
            .toList();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")))
          .containsExactlyInAnyOrderElementsOf(listed);
    }
    List<Migration> migrations = SchemaResources.load(dialect, Map.of());
    for (int i = 0; i < migrations.size(); i++) {
      assertThat(migrations.get(i).version()).isEqualTo(i + 1);
      assertThat(listed.get(i)).startsWith("V" + (i + 1) + "__");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void theTableListComesFromTheMigrations(String dialect) {
    assertThat(SchemaResources.tables(SchemaResources.load(dialect, Map.of())))
        .startsWith(
            "ratchet_marks",
            "ratchet_generations",
            "ratchet_checkpoints",
            "ratchet_records",
            "ratchet_leases",
            "ratchet_inbox");
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgresql"})
  void theSchemaPlaceholderIsReplacedInEveryStatement(String dialect) {
    assertThat(SchemaResources.load(dialect, Map.of("schema", "\"s1\"")))
        .flatMap(Migration::statements)
        .noneMatch(s -> s.contains("{schema}"))
        .anyMatch(s -> s.contains("SET search_path = \"s1\", pg_temp"));
  }

  private static String digest(Migration m) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update((m.version() + "\n" + m.description() + "\n").getBytes(StandardCharsets.UTF_8));
      for (String s : m.statements()) {
        sha.update((s + "\n;\n").getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
