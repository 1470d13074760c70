package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.StoreSpec;
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
 * Issue 44: {@code --store clusters:NAME=URL NAME=URL} names the PostgreSQL clusters runs are
 * spread over. A bad list — one cluster, a name twice, a name that is not one, a password in any
 * URL, a separate mark store — is refused (exit 2) naming the rule, before anything is opened or
 * written; a good one gives each cluster its own store, connecting as the command's role.
 */
class ClusterStoreOptionTest {
  private static final String A = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final String SECRET = "Pa55word-in-a-cluster-url";

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
    return new String[] {Integer.toString(exit), err.toString(StandardCharsets.UTF_8)};
  }

  private static List<String> files(Path home) throws IOException {
    try (Stream<Path> s = Files.walk(home)) {
      return s.map(Path::toString).sorted().toList();
    }
  }

  @Test
  void aBadClusterListIsRefusedNamingTheRuleAndNothingIsWritten() throws IOException {
    Path home = dir.resolve("home");
    KeyFiles.create(home.resolve("keys/ckpt-1.key"), Seams.secureEntropy());
    KeyFiles.activate(home.resolve("keys"), "ckpt-1");
    List<String> before = files(home);
    String[][] cases = {
      {"clusters:a=" + A, "at least two clusters"},
      {"clusters:a=" + A + " a=" + A, "cluster name 'a' is given twice"},
      {"clusters:a=" + A + " B=" + A, "cluster entry 2 must be NAME=jdbc:postgresql"},
      {"clusters:a=" + A + " b=" + A + "?password=" + SECRET, "--store (cluster b)"},
    };
    for (String[] c : cases) {
      String[] r = run("status", "--home", home.toString(), "--store", c[0]);
      assertThat(r[0]).as(c[0] + ": " + r[1]).isEqualTo("2");
      assertThat(r[1]).contains(c[1]).doesNotContain(SECRET);
    }
    String[] split =
        run(
            "status",
            "--home",
            home.toString(),
            "--store",
            "clusters:a=" + A + " b=" + A,
            "--mark-store",
            A);
    assertThat(split[0]).as(split[1]).isEqualTo("2");
    assertThat(split[1]).contains("--mark-store: a store spread over clusters");
    assertThat(files(home)).isEqualTo(before);
  }

  @Test
  void eachClusterOfAListIsAStoreOfItsOwnConnectingAsTheCommandsRole() {
    StoreSpec spec =
        StoreSpec.parse("--store", "clusters:a=" + A + "  b=jdbc:postgresql://h2:5433/other")
            .as(dev.ratchet.ops.PgRole.WORKER, "ratchet_worker");
    assertThat(spec.members())
        .extracting(m -> m.cluster() + " " + m.spec().url() + " " + m.spec().user())
        .containsExactly(
            "a " + A + " ratchet_worker", "b jdbc:postgresql://h2:5433/other ratchet_worker");
    assertThat(StoreSpec.parse("--store", A).members())
        .extracting(StoreSpec.Member::cluster)
        .containsOnlyNulls();
  }
}
