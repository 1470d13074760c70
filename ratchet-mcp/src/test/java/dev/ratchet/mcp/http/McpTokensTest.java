package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.Entropy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpTokensTest {
  @TempDir Path dir;
  private final Random seeded = new Random(41);
  private final Entropy entropy =
      n -> {
        byte[] b = new byte[n];
        seeded.nextBytes(b);
        return b;
      };
  private static final Instant NOW = Instant.parse("2026-12-06T07:00:00Z");

  @Test
  void anIssuedTokenAuthenticatesItsClientForItsRunsOnly() {
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    String token = tokens.issue("agent", List.of("run-1", "run-2"), entropy, NOW);
    assertThat(token).startsWith(McpTokens.PREFIX).hasSizeGreaterThan(40);
    McpTokens.Grant g = tokens.authenticate(token).orElseThrow();
    assertThat(g.client()).isEqualTo("agent");
    assertThat(g.allows("run-1")).isTrue();
    assertThat(g.allows("run-2")).isTrue();
    assertThat(g.allows("run-3")).isFalse();
  }

  @Test
  void unknownMalformedAndRevokedTokensAuthenticateNoOne() {
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    String token = tokens.issue("agent", List.of("run-1"), entropy, NOW);
    assertThat(tokens.authenticate(null)).isEmpty();
    assertThat(tokens.authenticate("")).isEmpty();
    assertThat(tokens.authenticate(token.substring(0, token.length() - 1) + "x")).isEmpty();
    assertThat(tokens.authenticate(token.substring(McpTokens.PREFIX.length()))).isEmpty();
    assertThat(tokens.revoke("agent")).isTrue();
    assertThat(tokens.authenticate(token)).isEmpty();
    assertThat(tokens.revoke("agent")).isFalse();
  }

  @Test
  void onlyTheDigestIsStoredInAPrivateFile() throws Exception {
    Path store = dir.resolve("mcp-tokens");
    String token = new McpTokens(store).issue("agent", List.of("run-1"), entropy, NOW);
    Path file = store.resolve("agent.json");
    String text = Files.readString(file);
    assertThat(text).doesNotContain(token).doesNotContain(token.substring(5)).contains("run-1");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store)))
        .isEqualTo("rwx------");
    assertThat(new McpTokens(store).list())
        .containsExactly(new McpTokens.Grant("agent", List.of("run-1"), NOW.toString()));
  }

  @Test
  void badInputIsRefusedNamingTheFieldAndNothingIsWritten() {
    Path store = dir.resolve("mcp-tokens");
    McpTokens tokens = new McpTokens(store);
    assertThatThrownBy(() -> tokens.issue("../x", List.of("run-1"), entropy, NOW))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("--client");
    assertThatThrownBy(() -> tokens.issue("agent", List.of(), entropy, NOW))
        .hasMessageContaining("--run");
    assertThatThrownBy(() -> tokens.issue("agent", List.of("a/b"), entropy, NOW))
        .hasMessageContaining("--run");
    assertThat(store).doesNotExist();
    tokens.issue("agent", List.of("run-1"), entropy, NOW);
    assertThatThrownBy(() -> tokens.issue("agent", List.of("run-2"), entropy, NOW))
        .satisfies(e -> assertThat(((RatchetException) e).code()).isEqualTo(ErrorCode.CONTRACT))
        .hasMessageContaining("already holds a token");
  }

  @Test
  void aDamagedTokenFileGrantsNothingAndBreaksNoOtherToken() throws Exception {
    Path store = dir.resolve("mcp-tokens");
    McpTokens tokens = new McpTokens(store);
    String token = tokens.issue("agent", List.of("run-1"), entropy, NOW);
    Files.writeString(
        store.resolve("broken.json"),
        "{\"format\":\"ratchet-mcp-token/1\",\"client\":\"broken\",\"token_sha256\":\"zz\","
            + "\"runs\":\"run-1\",\"issued_at\":\"x\"}");
    assertThat(tokens.authenticate(token).orElseThrow().client()).isEqualTo("agent");
    assertThat(tokens.authenticate(McpTokens.PREFIX + "zz")).isEmpty();
    assertThat(tokens.list()).extracting(McpTokens.Grant::client).containsExactly("agent");
  }
}
