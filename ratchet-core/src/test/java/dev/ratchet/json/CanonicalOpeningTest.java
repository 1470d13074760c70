package dev.ratchet.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Canonical#opening}: the canonical text of an object with one member spliced in is exactly
 * the canonical text of the object with that member, wherever the key sorts (first, middle, last,
 * only member), and the object's own text is its canonical text.
 */
class CanonicalOpeningTest {
  private static final JsonValue VALUE =
      JsonObject.builder().put("key_id", "k").put("hmac_sha256", "ab\"\u00e9").build();

  @Test
  void theSplicedTextIsTheCanonicalTextWhereverTheKeySorts() {
    List<JsonObject> bodies =
        List.of(
            JsonObject.EMPTY,
            JsonObject.builder().put("a", 1).build(),
            JsonObject.builder().put("z", 1).build(),
            JsonObject.builder().put("a", 1).put("z", "x").build(),
            JsonObject.builder().put("record", 1).put("recordz", true).put("r", "\n").build(),
            JsonObject.builder()
                .put("sequence", 3)
                .put("detail", JsonObject.builder().put("record_auth", 1).build())
                .put("at_ms", 7)
                .build());
    for (JsonObject body : bodies) {
      for (String key : List.of("record_auth", "", "a0", "zz", "\u00e9", "Record")) {
        if (body.has(key)) {
          continue;
        }
        Canonical.Opening o = Canonical.opening(body, key);
        assertThat(o.text()).isEqualTo(Canonical.string(body));
        assertThat(o.with(VALUE))
            .as(body + " + " + key)
            .isEqualTo(Canonical.string(body.with(key, VALUE)));
      }
    }
  }

  @Test
  void seededObjectsSpliceToTheirCanonicalText() {
    Random r = new Random(38);
    for (int n = 0; n < 500; n++) {
      JsonObject.Builder b = JsonObject.builder();
      int size = r.nextInt(6);
      for (int i = 0; i < size; i++) {
        b.put(key(r), r.nextInt(100));
      }
      JsonObject body = b.build();
      String key = key(r);
      if (body.has(key)) {
        continue;
      }
      JsonValue v = new JsonString(key(r));
      assertThat(Canonical.opening(body, key).with(v))
          .isEqualTo(Canonical.string(body.with(key, v)));
    }
  }

  private static String key(Random r) {
    String alphabet = "abrz_\u00e9";
    StringBuilder s = new StringBuilder();
    for (int i = r.nextInt(4); i >= 0; i--) {
      s.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return s.toString();
  }

  @Test
  void aKeyAlreadyPresentIsRefused() {
    assertThatThrownBy(() -> Canonical.opening(JsonObject.builder().put("a", 1).build(), "a"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aBuiltObjectDoesNotChangeWhenItsBuilderGoesOn() {
    JsonObject.Builder b = JsonObject.builder().put("a", 1);
    JsonObject first = b.build();
    JsonObject second = b.put("b", 2).put("a", 3).build();
    assertThat(first).isEqualTo(JsonObject.builder().put("a", 1).build());
    assertThat(Canonical.string(first)).isEqualTo("{\"a\":1}");
    assertThat(Canonical.string(second)).isEqualTo("{\"a\":3,\"b\":2}");
    assertThat(Canonical.string(b.build())).isEqualTo("{\"a\":3,\"b\":2}");
    assertThatThrownBy(() -> first.members().put("c", new JsonInt(1)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> JsonObject.builder().put("a", (JsonValue) null).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void withoutAnAbsentMemberIsTheSameObject() {
    JsonObject o = JsonObject.builder().put("a", 1).build();
    assertThat(o.without("b")).isSameAs(o);
    assertThat(o.without("a")).isEqualTo(JsonObject.EMPTY);
    assertThat(o).isEqualTo(JsonObject.builder().put("a", 1).build());
  }
}
