package dev.ratchet.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordMac#sealText} (the body canonicalised once) stores exactly the text of {@link
 * RecordMac#seal}, opens, and its MAC still binds the position and the body.
 */
class RecordMacSealTextTest {
  private static KeyRing ring(long seed) {
    byte[] m = new byte[32];
    new Random(seed).nextBytes(m);
    return KeyRing.of(SecretKey.of("ckpt-" + seed, m, ErrorCode.CHECKPOINT));
  }

  private static final JsonObject BODY =
      JsonObject.builder()
          .put("sequence", 4)
          .put("kind", "write_file")
          .put("detail", JsonObject.builder().put("content", "x\"\u00e9\n").build())
          .put("at_ms", 17)
          .build();

  @Test
  void sealTextIsTheCanonicalTextOfSeal() {
    KeyRing ring = ring(1);
    for (RecordSet set : RecordSet.values()) {
      String text = RecordMac.sealText(ring, "t", "r", set, 4, "k4", BODY);
      assertThat(text)
          .isEqualTo(Canonical.string(RecordMac.seal(ring, "t", "r", set, 4, "k4", BODY)));
      assertThat(Json.parse(text)).isInstanceOf(JsonObject.class);
      assertThat(Canonical.string(Json.parse(text))).isEqualTo(text);
    }
    // A body that already carries a MAC is resealed, as seal does.
    JsonObject sealed = RecordMac.seal(ring, "t", "r", RecordSet.TRACE, 1, "1", BODY);
    assertThat(RecordMac.sealText(ring(2), "t", "r", RecordSet.TRACE, 1, "1", sealed))
        .isEqualTo(
            Canonical.string(RecordMac.seal(ring(2), "t", "r", RecordSet.TRACE, 1, "1", BODY)));
  }

  @Test
  void aSealedTextOpensAtItsPositionOnly() {
    KeyRing ring = ring(3);
    String text = RecordMac.sealText(ring, "t", "r", RecordSet.TRACE, 4, "4", BODY);
    StoredRecord r = new StoredRecord(RecordSet.TRACE, 4, "4", text, "0".repeat(64));
    assertThat(RecordMac.open(ring, "t", "r", r)).isEqualTo(BODY);
    StoredRecord moved = new StoredRecord(RecordSet.TRACE, 5, "4", text, "0".repeat(64));
    assertThatThrownBy(() -> RecordMac.open(ring, "t", "r", moved))
        .isInstanceOf(RatchetException.class);
    assertThatThrownBy(() -> RecordMac.open(ring, "t", "other", r))
        .isInstanceOf(RatchetException.class);
    assertThatThrownBy(() -> RecordMac.open(ring(4), "t", "r", r))
        .isInstanceOf(RatchetException.class);
    String edited = text.replace("\"at_ms\":17", "\"at_ms\":18");
    assertThat(edited).isNotEqualTo(text);
    StoredRecord e = new StoredRecord(RecordSet.TRACE, 4, "4", edited, "0".repeat(64));
    assertThatThrownBy(() -> RecordMac.open(ring, "t", "r", e))
        .isInstanceOf(RatchetException.class);
  }
}
