package dev.ratchet.ops.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SecretRegistry;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5 (D27 as D30 extends it): redaction covers every secret a command loaded, not
 * only the checkpoint keys: each PostgreSQL password in the environment, in every encoding, marked
 * by its variable's name.
 */
class LoadedSecretsTest {
  private static final String OWNER_PW = "owner-password-0123";
  private static final String WORKER_PW = "worker-password-4567";

  @Test
  void databasePasswordsFromTheEnvironmentAreRedactedBesideTheCheckpointKeys() {
    KeyRing ring = KeyRing.of(SecretKey.of("ckpt-1", new byte[32], ErrorCode.CHECKPOINT));
    SecretRegistry secrets =
        LoadedSecrets.of(
            ring,
            Map.of(
                "RATCHET_PG_PASSWORD", OWNER_PW,
                "RATCHET_PG_WORKER_PASSWORD", WORKER_PW,
                "HOME", "/home/not-a-secret"));
    assertThat(secrets.ids())
        .containsExactlyInAnyOrder("ckpt-1", "RATCHET_PG_PASSWORD", "RATCHET_PG_WORKER_PASSWORD");
    String leaked =
        "conn "
            + OWNER_PW
            + " hex "
            + HexFormat.of().formatHex(WORKER_PW.getBytes())
            + " b64 "
            + Base64.getEncoder().encodeToString(OWNER_PW.getBytes())
            + " home /home/not-a-secret";
    SecretRegistry.Redacted r = secrets.redact(leaked);
    assertThat(r.text())
        .doesNotContain(OWNER_PW)
        .doesNotContain(HexFormat.of().formatHex(WORKER_PW.getBytes()))
        .contains("[redacted:RATCHET_PG_PASSWORD]")
        .contains("[redacted:RATCHET_PG_WORKER_PASSWORD]")
        .contains("/home/not-a-secret");
    assertThat(r.matches()).containsEntry("RATCHET_PG_PASSWORD", 2);
  }

  @Test
  void withoutPasswordsInTheEnvironmentOnlyTheKeysAreRegistered() {
    KeyRing ring = KeyRing.of(SecretKey.of("ckpt-1", new byte[32], ErrorCode.CHECKPOINT));
    assertThat(LoadedSecrets.of(ring, Map.of()).ids()).containsExactly("ckpt-1");
  }
}
