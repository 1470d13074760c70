package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Settings;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: operators are a third human role beside approvers and reviewers: their own Ed25519 pair
 * under {@code identities/operator/}, trusted public keys under {@code operators/}, loaded into
 * their own trust root, never standing in for another role's.
 */
class OperatorKeysTest {
  @TempDir Path dir;

  @Test
  void generateWritesAPrivateKeyOnlyTheOperatorReadsAndTrustInstallsItsPublicKey()
      throws Exception {
    MemoryHarness h = new MemoryHarness(dir, 7);
    MemoryHarness.Result g = h.run("keys", "generate", "--role", "operator", "--name", "olga");
    assertThat(g.exit()).as(g.err()).isZero();
    Path key = h.home.resolve("identities/operator/olga.key");
    Path pub = h.home.resolve("identities/operator/olga.pub");
    assertThat(g.out())
        .contains("created operator key ")
        .contains("'ratchet keys trust --role operator " + pub + "'");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
        .isEqualTo("rw-------");
    String keyId = Pem.readPrivate(key, "olga").keyId();

    MemoryHarness.Result t = h.run("keys", "trust", "--role", "operator", pub.toString());
    assertThat(t.exit()).as(t.err()).isZero();
    assertThat(t.out()).contains("trusted operator key " + keyId + " ('olga')");
    assertThat(h.home.resolve("operators/olga.pub")).exists();

    Settings settings = new Settings(h.home, null, null, null, null, null, null);
    TrustRoot operators = KeyConfig.trustRoot(settings, Role.OPERATOR);
    assertThat(operators.role()).isEqualTo(Role.OPERATOR);
    assertThat(operators.trusts(keyId)).isTrue();
    assertThat(KeyConfig.trustRoot(settings, Role.APPROVER).trusts(keyId))
        .as("an operator key is no approver key")
        .isFalse();

    MemoryHarness.Result list = h.run("keys", "list");
    assertThat(list.out())
        .containsPattern("operator +" + keyId + " .*operators/olga.pub .*trusted");
  }

  @Test
  void anUnknownRoleIsRefusedNamingTheOptionAndTheRolesAndWritesNothing() {
    MemoryHarness h = new MemoryHarness(dir, 7);
    MemoryHarness.Result g = h.run("keys", "generate", "--role", "admin", "--name", "olga");
    assertThat(g.exit()).isEqualTo(2);
    assertThat(g.err())
        .contains("--role: 'admin' is not one of checkpoint, approver, reviewer, operator");
    MemoryHarness.Result t = h.run("keys", "trust", "--role", "admin", "x.pub");
    assertThat(t.exit()).isEqualTo(2);
    assertThat(t.err()).contains("--role: 'admin' is not one of approver, reviewer, operator");
    assertThat(h.home.resolve("identities")).doesNotExist();
  }
}
