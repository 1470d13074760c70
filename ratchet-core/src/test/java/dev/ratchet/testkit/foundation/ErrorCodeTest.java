package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.testkit.Rules;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stable error codes (reference-behaviour §1.2, D14): each has its documented exit code, and
 * one exception family carries them.
 */
class ErrorCodeTest {
  /** The codes and exit codes documented on {@link ErrorCode}; scripts branch on them. */
  @Test
  @Rules("R1.2-codes")
  void everyCodeHasItsDocumentedExitCode() {
    Map<ErrorCode, Integer> documented = new EnumMap<>(ErrorCode.class);
    documented.put(ErrorCode.CONTRACT, 2);
    documented.put(ErrorCode.PERMISSION, 3);
    documented.put(ErrorCode.APPROVAL, 4);
    documented.put(ErrorCode.REVIEW_REQUIRED, 4);
    documented.put(ErrorCode.STALE_OBSERVATION, 3);
    documented.put(ErrorCode.IDEMPOTENCY_CONFLICT, 3);
    documented.put(ErrorCode.CHECKPOINT, 3);
    documented.put(ErrorCode.TERMINAL, 3);
    documented.put(ErrorCode.VERIFICATION, 3);
    documented.put(ErrorCode.FENCED, 3);
    documented.put(ErrorCode.STORE_UNAVAILABLE, 5);
    documented.put(ErrorCode.INTERNAL, 1);
    assertThat(documented.keySet()).containsExactlyInAnyOrder(ErrorCode.values());
    for (ErrorCode c : ErrorCode.values()) {
      assertThat(c.exitCode()).as("exit code of %s", c).isEqualTo(documented.get(c)).isNotZero();
    }
    // The D14 names are stable: scripts match on them.
    assertThat(List.of(ErrorCode.values()).stream().map(Enum::name))
        .containsExactly(
            "CONTRACT",
            "PERMISSION",
            "APPROVAL",
            "REVIEW_REQUIRED",
            "STALE_OBSERVATION",
            "IDEMPOTENCY_CONFLICT",
            "CHECKPOINT",
            "TERMINAL",
            "VERIFICATION",
            "FENCED",
            "STORE_UNAVAILABLE",
            "INTERNAL");
  }

  @Test
  @Rules("R1.2-codes")
  void oneExceptionFamilyCarriesTheCodes() {
    assertThat(RatchetException.contract("m").code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(RatchetException.checkpoint("m").code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(RatchetException.approval("m").code()).isEqualTo(ErrorCode.APPROVAL);
    RatchetException e = RatchetException.contract("x.y: must be text");
    RatchetException re = e.withCode(ErrorCode.CHECKPOINT);
    assertThat(re.code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(re.getMessage()).isEqualTo("x.y: must be text");
    assertThat(re.getCause()).isSameAs(e);
    assertThat(re).hasToString("RatchetException[CHECKPOINT]: x.y: must be text");
    assertThat(re).isInstanceOf(RuntimeException.class);
  }
}
