package dev.ratchet.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** SPEC D27: every loaded secret is redacted from evidence in every encoding, by id only. */
class SecretRegistryTest {
  private static final byte[] KEY = new byte[32];
  private static final byte[] OTHER = new byte[32];

  static {
    for (int i = 0; i < 32; i++) {
      KEY[i] = (byte) (i * 37 + 11);
      OTHER[i] = (byte) (255 - i * 5);
    }
  }

  private final SecretRegistry registry =
      SecretRegistry.builder()
          .add(KeyRing.of(SecretKey.checkpoint("ckpt-1", KEY)))
          .add("alice", OTHER)
          .build();

  @Test
  void everyEncodingOfEveryKeyIsReplacedByItsIdAndCounted() {
    List<Function<byte[], String>> encodings =
        List.of(
            b -> new String(b, java.nio.charset.StandardCharsets.ISO_8859_1),
            b -> HexFormat.of().formatHex(b),
            b -> HexFormat.of().formatHex(b).toUpperCase(Locale.ROOT),
            b -> Base64.getEncoder().encodeToString(b),
            b -> Base64.getEncoder().withoutPadding().encodeToString(b),
            b -> Base64.getUrlEncoder().encodeToString(b),
            b -> Base64.getUrlEncoder().withoutPadding().encodeToString(b));
    for (Function<byte[], String> enc : encodings) {
      String text = "KEY=hex:" + enc.apply(KEY) + "\nalice " + enc.apply(OTHER) + " end";
      SecretRegistry.Redacted r = registry.redact(text);
      assertThat(r.text()).isEqualTo("KEY=hex:[redacted:ckpt-1]\nalice [redacted:alice] end");
      assertThat(r.matches()).isEqualTo(Map.of("ckpt-1", 1, "alice", 1));
    }
  }

  @Test
  void aFragmentLeftByATruncatedOutputIsRedactedToo() {
    String hex = HexFormat.of().formatHex(KEY);
    String cut = "tail of output: " + hex.substring(0, 30);
    SecretRegistry.Redacted r = registry.redact(cut);
    assertThat(r.text())
        .startsWith("tail of output: [redacted:ckpt-1]")
        .doesNotContain(hex.substring(0, 24));
    String b64 = Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(KEY, 1, 31));
    assertThat(registry.redact("x" + b64 + "y").text()).doesNotContain(b64.substring(4, 20));
  }

  @Test
  void textWithoutSecretsIsUntouched() {
    SecretRegistry.Redacted r = registry.redact("all tests passed\n");
    assertThat(r.text()).isEqualTo("all tests passed\n");
    assertThat(r.matches()).isEmpty();
    assertThat(SecretRegistry.none().redact(HexFormat.of().formatHex(KEY)).matches()).isEmpty();
  }

  @Test
  void aRegisteredSecretIsRedactedUnderItsIdAndTheRegistryNeverRendersBytes() {
    // Trust roots hold public keys only (D19); a process that holds a private key registers it.
    SecretRegistry r = SecretRegistry.builder().add("alice", OTHER).build();
    assertThat(r.ids()).containsExactly("alice");
    assertThat(r.redact(HexFormat.of().formatHex(OTHER)).text()).isEqualTo("[redacted:alice]");
    assertThat(r.toString()).isEqualTo("SecretRegistry[alice]");
  }

  @Test
  void aSecretTooShortToRecogniseIsRefused() {
    assertThatThrownBy(() -> SecretRegistry.builder().add("pin", new byte[4]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("0000");
  }
}
