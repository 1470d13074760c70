package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Equality of JSON values is typed; canonical bytes are the wire identity (JsonValue Javadoc). */
class JsonEqualityTest {
  @Test
  void anIntegerAndADecimalOfOneValueDifferThoughTheirCanonicalFormsAgree() {
    assertThat(new JsonInt(1)).isNotEqualTo(new JsonDecimal(1.0));
    assertThat(Canonical.bytes(new JsonInt(1))).isEqualTo(Canonical.bytes(new JsonDecimal(1.0)));
    assertThat(new JsonDecimal(0.0)).isNotEqualTo(new JsonDecimal(-0.0));
    assertThat(Canonical.string(new JsonDecimal(-0.0))).isEqualTo("0");
  }

  @Test
  void objectsAreEqualMemberByMemberWhateverTheOrderTheyWereBuiltIn() {
    JsonObject a = JsonObject.builder().put("b", 2).put("a", "x").build();
    JsonObject b = JsonObject.builder().put("a", "x").put("b", 2).build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(Canonical.bytes(a)).isEqualTo(Canonical.bytes(b));
  }
}
