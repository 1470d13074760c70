package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapters.internal.WorkspaceActions;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The workspace's and the ledger's kinds publish argument schemas that match their rules. */
class AdapterSchemasTest {
  private static final Map<String, ActionSpec> WORKSPACE =
      index(new WorkspaceActions(1000, true).specs());
  private static final Map<String, ActionSpec> LEDGER =
      index(LedgerApi.actions().stream().map(HttpAction::spec).toList());

  @Test
  void everyKindHasASchemaWhosePropertiesAreTheRuleFields() {
    assertThat(WORKSPACE.keySet())
        .containsExactlyInAnyOrder(
            "read_file", "write_file", "append_file", "delete_file", "run_tests", "run_command");
    WORKSPACE.values().forEach(s -> assertThat(s.argumentSchema()).isPresent());
    LEDGER.values().forEach(s -> assertThat(s.argumentSchema()).isPresent());
    assertThat(names(WORKSPACE, "write_file"))
        .containsExactly("path", "content", "expected_sha256");
    assertThat(names(WORKSPACE, "delete_file")).containsExactly("path", "expected_sha256");
    assertThat(names(LEDGER, "pay_order")).containsExactly("account", "order_id", "amount_cents");
    assertThat(names(LEDGER, "create_order"))
        .containsExactly("account", "sku", "quantity", "unit_price_cents");
  }

  @Test
  void theLedgerSchemaCarriesTheIdPatternAndTheAmountRange() {
    JsonObject pay = LEDGER.get("pay_order").argumentSchema().orElseThrow().toJson();
    assertThat(pay.toString())
        .contains("\"pattern\":\"^[A-Za-z0-9._-]{1,64}$\"")
        .contains("\"maximum\":1000000000000")
        .contains("\"additionalProperties\":false");
    ActionSpec spec = LEDGER.get("pay_order");
    spec.validateArguments(
        args("{\"account\":\"acme\",\"order_id\":\"o-1\",\"amount_cents\":5}"), "a");
    assertThatThrownBy(
            () ->
                spec.validateArguments(
                    args("{\"account\":\"acme\",\"order_id\":\"o/1\",\"amount_cents\":5}"), "a"))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("a.order_id");
  }

  @Test
  void aDeleteNeedsItsDigestAWriteMayNameNone() {
    assertThat(WORKSPACE.get("write_file").argumentSchema().orElseThrow().toJson().toString())
        .contains("\"expected_sha256\":{\"description\"")
        .contains("[\"string\",\"null\"]");
    ArgumentSchema.Property del =
        WORKSPACE.get("delete_file").argumentSchema().orElseThrow().properties().get(1);
    assertThat(del.nullable()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"../a", "/a", "a//b", "a/./b", "a/..", "a\\b", ".", "a/"})
  void thePathPatternRefusesWhatWorkspacePathsRefuses(String path) {
    ArgumentSchema read = WORKSPACE.get("read_file").argumentSchema().orElseThrow();
    JsonObject bad = JsonObject.builder().put("path", path).build();
    assertThatThrownBy(() -> read.validate(bad, "a")).isInstanceOf(RatchetException.class);
    assertThatThrownBy(() -> WORKSPACE.get("read_file").validateArguments(bad, "a"))
        .isInstanceOf(RatchetException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "src/App.java", ".hidden/x", "a..b/c", "dir/.x"})
  void thePathPatternAcceptsWhatWorkspacePathsAccepts(String path) {
    WORKSPACE
        .get("read_file")
        .validateArguments(JsonObject.builder().put("path", path).build(), "a");
  }

  private static List<String> names(Map<String, ActionSpec> specs, String kind) {
    return specs.get(kind).argumentSchema().orElseThrow().names();
  }

  private static JsonObject args(String json) {
    return (JsonObject) Json.parse(json);
  }

  private static Map<String, ActionSpec> index(List<ActionSpec> specs) {
    return specs.stream().collect(Collectors.toMap(ActionSpec::kind, Function.identity()));
  }
}
