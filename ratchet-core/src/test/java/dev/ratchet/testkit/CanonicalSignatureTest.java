package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Approval;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.InboxItem;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * D30: an Ed25519 signature has one spelling. 64 bytes take 86 base64url characters whose last one
 * carries 4 unused bits; the JDK's decoder ignores them, so 16 spellings decode to the same
 * signature. Only the one with those bits zero is accepted, everywhere a signature is read.
 */
class CanonicalSignatureTest {
  private static final String DIGITS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final byte[] MESSAGE = "approve a1".getBytes(StandardCharsets.UTF_8);

  private final SigningKey alice = SigningKey.of("alice", Ed25519.generate(new SeededEntropy(7)));

  /** The same signature with unused trailing bits {@code bits} (1..15) set. */
  private static String respelled(String canonical, int bits) {
    char last = canonical.charAt(canonical.length() - 1);
    char other = DIGITS.charAt(DIGITS.indexOf(last) | bits);
    return canonical.substring(0, canonical.length() - 1) + other;
  }

  @Test
  void fifteenOtherSpellingsOfAValidSignatureAreRefusedWhereverASignatureIsRead() {
    String canonical = alice.sign(MESSAGE);
    TrustRoot approvers = TrustRoot.approvers(List.of(alice.trusted()));
    approvers.verify(alice.keyId(), MESSAGE, canonical);
    assertThat(Ed25519.isSignatureText(canonical)).isTrue();
    for (int bits = 1; bits < 16; bits++) {
      String other = respelled(canonical, bits);
      // The attack: the JDK decodes the other spelling to the very same 64 bytes.
      assertThat(Base64.getUrlDecoder().decode(other))
          .isEqualTo(Base64.getUrlDecoder().decode(canonical));
      assertThat(Ed25519.isSignatureText(other)).as(other).isFalse();
      assertThat(Ed25519.decodeSignature(other)).isNull();
      assertThatThrownBy(() -> approvers.verify(alice.keyId(), MESSAGE, other))
          .isInstanceOfSatisfying(
              DecisionRefused.class,
              e -> assertThat(e.reason()).isEqualTo(DecisionRefused.Reason.BAD_SIGNATURE));
      JsonObject env =
          JsonObject.builder()
              .put("payload", JsonObject.builder().put("x", 1).build())
              .put("key_id", alice.keyId())
              .put("signature_ed25519", other)
              .build();
      assertThatThrownBy(() -> SignedEnvelope.fromJson(Json.parse(Canonical.string(env)), "e"))
          .isInstanceOfSatisfying(
              RatchetException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
                assertThat(e.getMessage()).contains("signature_ed25519").contains("unused");
              });
    }
  }

  @Test
  void everySignatureTheEncoderWritesIsCanonical() {
    for (int i = 0; i < 64; i++) {
      String s = alice.sign(("m" + i).getBytes(StandardCharsets.UTF_8));
      assertThat(Ed25519.isSignatureText(s)).as(s).isTrue();
      assertThat(Ed25519.decodeSignature(s)).hasSize(Ed25519.SIGNATURE_BYTES);
    }
  }

  @Test
  void anApprovalDeliveredUnderAnotherSpellingIsRefusedAndTheWriteDoesNotRun() {
    RuntimeFixture f = RuntimeFixture.inMemory(58);
    TaskSpec task = f.task("write_file");
    InMemoryWorkspace ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key =
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
              .action()
              .idempotencyKey();
      Approval a =
          Approval.ofPending("alice", run.state(), task, 100, f.clock.millis() + 60_000, "n-x");
      SignedEnvelope good = SignedEnvelope.sign(a.toJson(), f.approverKey);
      JsonObject respelled =
          good.toJson()
              .with("signature_ed25519", new JsonString(respelled(good.signatureEd25519(), 5)));
      // Written as anyone with the store's delivery right could write it, past the front door.
      f.store.deliver(
          task.taskId(),
          "run-1",
          new InboxItem("n-x", InboxItem.Kind.APPROVAL, Canonical.string(respelled)));
      assertThat(RuntimeFixture.awaitingWhy(run.execute("a1")))
          .contains("n-x")
          .contains("malformed");
      assertThat(ws.effects(key)).isZero();
    }
  }
}
