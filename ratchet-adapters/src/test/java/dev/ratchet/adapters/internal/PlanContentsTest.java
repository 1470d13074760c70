package dev.ratchet.adapters.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whole-task validation: a plan's expected digests must agree with the files its task fixes. */
class PlanContentsTest {
  private static final Map<String, JsonValue> FILES =
      Map.of("app.py", new JsonString("print(1)\n"));

  private static TaskOutline.Step write(String path, String content, String expected) {
    JsonObject.Builder b = JsonObject.builder().put("path", path).put("content", content);
    if (expected != null) {
      b.put("expected_sha256", expected);
    }
    return new TaskOutline.Step("write_file", b.build());
  }

  @Test
  void aPlanThatFollowsItsOwnFilesPasses() {
    assertThatCode(
            () ->
                PlanContents.check(
                    FILES,
                    List.of(
                        write("app.py", "print(2)\n", Canonical.sha256Hex("print(1)\n")),
                        write("app.py", "print(3)\n", Canonical.sha256Hex("print(2)\n")),
                        write("new.txt", "n\n", null),
                        new TaskOutline.Step(
                            "append_file",
                            JsonObject.builder()
                                .put("path", "new.txt")
                                .put("content", "m\n")
                                .put("expected_sha256", Canonical.sha256Hex("n\n"))
                                .build()),
                        new TaskOutline.Step(
                            "delete_file",
                            JsonObject.builder()
                                .put("path", "new.txt")
                                .put("expected_sha256", Canonical.sha256Hex("n\nm\n"))
                                .build()),
                        write("new.txt", "again\n", null))))
        .doesNotThrowAnyException();
  }

  @Test
  void anExpectedDigestThatContradictsTheDeclaredFileIsRefusedNamingTheField() {
    assertThatThrownBy(
            () ->
                PlanContents.check(
                    FILES, List.of(write("app.py", "print(2)\n", Canonical.sha256Hex("other\n")))))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
              org.assertj.core.api.Assertions.assertThat(e.getMessage())
                  .contains("plan[0].arguments.expected_sha256")
                  .contains(Canonical.sha256Hex("print(1)\n"));
            });
  }

  @Test
  void aLaterStepMustExpectWhatAnEarlierStepWrote() {
    assertThatThrownBy(
            () ->
                PlanContents.check(
                    FILES,
                    List.of(
                        write("app.py", "print(2)\n", Canonical.sha256Hex("print(1)\n")),
                        write("app.py", "print(3)\n", Canonical.sha256Hex("print(1)\n")))))
        .hasMessageContaining("plan[1].arguments.expected_sha256");
  }

  @Test
  void aFileTheTaskDoesNotFixIsNotJudged() {
    assertThatCode(
            () ->
                PlanContents.check(
                    FILES, List.of(write("README.md", "r\n", Canonical.sha256Hex("whatever\n")))))
        .doesNotThrowAnyException();
  }
}
