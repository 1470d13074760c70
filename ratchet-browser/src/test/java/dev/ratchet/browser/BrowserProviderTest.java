package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.time.Instant;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The provider is found through ServiceLoader and reads the task's prefixes and forms strictly. */
class BrowserProviderTest {
  private static final AdapterProvider.Context CONTEXT =
      new AdapterProvider.Context(
          new ManualClock(Instant.parse("2026-12-06T09:00:00Z")),
          new SeededEntropy(1),
          CrashSeam.NONE);

  private static AdapterProvider provider() {
    return ServiceLoader.load(AdapterProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(p -> p.namespace().equals(BrowserAdapter.NAMESPACE))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theProviderOffersTheDeclaredFormsAndMarksUnkeyedOnesUnreceipted() {
    JsonObject env =
        (JsonObject)
            Json.parse(
                "{\"url_prefixes\":[\"/web/\"],\"forms\":{\"order\":{\"submit\":\"place-order\","
                    + "\"receipted\":true}}}");
    var specs = provider().actionSpecs(env, CONTEXT);
    assertThat(specs).extracting(s -> s.kind()).contains("fill_and_submit", "read_page");
    assertThat(
            specs.stream()
                .filter(s -> s.kind().equals("fill_and_submit_unreceipted"))
                .findFirst()
                .orElseThrow()
                .effectKind())
        .isEqualTo(EffectKind.UNRECEIPTED);
  }

  @Test
  void aPrefixThatIsNotADirectoryIsRefusedNamingTheField() {
    JsonObject env = (JsonObject) Json.parse("{\"url_prefixes\":[\"web\"],\"forms\":{}}");
    assertThatThrownBy(() -> provider().actionSpecs(env, CONTEXT))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
              assertThat(e.getMessage()).contains("task.environment.url_prefixes");
            });
  }
}
