package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.sign.TrustedKey;
import dev.ratchet.testkit.LeakScan;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ed25519 for human decisions (SPEC D19): RFC 8032 §7.1 known answers through the JDK's provider,
 * key ids, trust roots of public keys without fallback, and PEM key files (PKCS#8 0600, X.509).
 */
class Ed25519Test {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] MESSAGE = "ratchet approval".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  /** RFC 8032 §7.1 TEST 1-3: secret seed, public key, message, signature. */
  @ParameterizedTest(name = "RFC 8032 7.1 test {0}")
  @CsvSource({
    "1, 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60,"
        + " d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a, '',"
        + " e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    "2, 4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb,"
        + " 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c, 72,"
        + " 92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    "3, c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7,"
        + " fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025, af82,"
        + " 6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
  })
  @Rules("R1.4-key-length")
  void rfc8032KnownAnswers(int test, String seed, String publicKey, String message, String sig)
      throws Exception {
    byte[] m = HEX.parseHex(message == null ? "" : message);
    // The public key derived from the secret seed (X.509 = fixed 12-byte prefix + raw key).
    var pair = Ed25519.fromSeed(HEX.parseHex(seed));
    byte[] spki = pair.getPublic().getEncoded();
    assertThat(HEX.formatHex(spki, 0, 12)).isEqualTo("302a300506032b6570032100");
    assertThat(HEX.formatHex(spki, 12, spki.length))
        .as("test %d public key", test)
        .isEqualTo(publicKey);
    // Signing with the raw key (EdECPrivateKeySpec) and with the derived pair: the exact bytes.
    assertThat(HEX.formatHex(Ed25519.sign(Ed25519.privateKey(HEX.parseHex(seed)), m)))
        .isEqualTo(sig);
    assertThat(HEX.formatHex(Ed25519.sign(pair.getPrivate(), m))).isEqualTo(sig);
    assertThat(Ed25519.verify(pair.getPublic(), m, HEX.parseHex(sig))).isTrue();
    // The public key derived again from the private key alone (as a PKCS#8 file is read).
    assertThat(Ed25519.publicKeyOf(pair.getPrivate()).getEncoded()).isEqualTo(spki);
    // Key id: first 16 hex digits of SHA-256 of the X.509 encoding.
    String sha = HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(spki));
    assertThat(Ed25519.keyId(pair.getPublic())).isEqualTo(sha.substring(0, 16));
    // Any one-bit change of signature or message fails.
    byte[] bad = HEX.parseHex(sig);
    bad[7] ^= 1;
    assertThat(Ed25519.verify(pair.getPublic(), m, bad)).isFalse();
    byte[] other = Arrays.copyOf(m, m.length + 1);
    assertThat(Ed25519.verify(pair.getPublic(), other, HEX.parseHex(sig))).isFalse();
  }

  @Test
  @Rules("R1.4-key-length")
  void signaturesTravelAsUnpaddedBase64UrlAndMalformedOnesAreFalse() {
    SigningKey k = SigningKey.of("alice", Ed25519.generate(new SeededEntropy(1)));
    String s = k.sign(MESSAGE);
    assertThat(s).matches("[A-Za-z0-9_-]{86}");
    assertThat(Ed25519.decodeSignature(s)).hasSize(64);
    for (String bad :
        List.of(s.substring(1), s + "A", s.substring(2) + "==", "+" + s.substring(1))) {
      assertThat(Ed25519.decodeSignature(bad)).as(bad).isNull();
    }
    assertThat(Ed25519.verify(k.trusted().publicKey(), MESSAGE, new byte[63])).isFalse();
    assertThat(Ed25519.verify(k.trusted().publicKey(), MESSAGE, null)).isFalse();
    assertThat(k.toString()).isEqualTo("SigningKey[alice, key_id=" + k.keyId() + "]");
    // Generation through the entropy seam is deterministic: same seed, same key.
    assertThat(SigningKey.of("a", Ed25519.generate(new SeededEntropy(1))).keyId())
        .isEqualTo(k.keyId());
    assertThat(SigningKey.of("a", Ed25519.generate(new SeededEntropy(2))).keyId())
        .isNotEqualTo(k.keyId());
  }

  @Test
  @Rules("R1.4-key-length")
  void trustRootsHoldPublicKeysAndNeverFallBackToEachOtherOrToTheCheckpointKey() {
    SigningKey alice = key("alice", 41);
    SigningKey rita = key("rita", 42);
    SigningKey samApprover = key("sam", 43);
    SigningKey samReviewer = key("sam", 44);
    TrustRoot approvers = TrustRoot.approvers(List.of(alice.trusted(), samApprover.trusted()));
    TrustRoot reviewers = TrustRoot.reviewers(List.of(rita.trusted(), samReviewer.trusted()));
    KeyRing ring = KeyRing.of(SecretKey.checkpoint("ckpt-1", new SeededEntropy(45).bytes(32)));
    assertThat(approvers.role()).isEqualTo(Role.APPROVER);
    assertThat(reviewers.role()).isEqualTo(Role.REVIEWER);
    approvers.verify(alice.keyId(), MESSAGE, alice.sign(MESSAGE));
    reviewers.verify(rita.keyId(), MESSAGE, rita.sign(MESSAGE));
    assertThat(approvers.label(alice.keyId())).contains("alice");
    // An approver cannot sign a reviewer decision, nor a reviewer an approval.
    refused(
        () -> reviewers.verify(alice.keyId(), MESSAGE, alice.sign(MESSAGE)),
        DecisionRefused.Reason.UNTRUSTED_SIGNER,
        "reviewer key '" + alice.keyId() + "' is not trusted");
    refused(
        () -> approvers.verify(rita.keyId(), MESSAGE, rita.sign(MESSAGE)),
        DecisionRefused.Reason.UNTRUSTED_SIGNER,
        "approver key '" + rita.keyId() + "' is not trusted");
    // The same name in both roots: keys differ, so do ids; a name is only a label.
    assertThat(samApprover.keyId()).isNotEqualTo(samReviewer.keyId());
    refused(
        () -> reviewers.verify(samApprover.keyId(), MESSAGE, samApprover.sign(MESSAGE)),
        DecisionRefused.Reason.UNTRUSTED_SIGNER,
        "not trusted");
    // A trusted id with another key's signature, or a changed message, is a bad signature.
    refused(
        () -> approvers.verify(samApprover.keyId(), MESSAGE, alice.sign(MESSAGE)),
        DecisionRefused.Reason.BAD_SIGNATURE,
        "approver signature under key '" + samApprover.keyId() + "' (sam) does not verify");
    refused(
        () ->
            approvers.verify(
                alice.keyId(), "other".getBytes(StandardCharsets.UTF_8), alice.sign(MESSAGE)),
        DecisionRefused.Reason.BAD_SIGNATURE,
        "does not verify");
    refused(
        () -> approvers.verify(alice.keyId(), MESSAGE, "not base64url"),
        DecisionRefused.Reason.BAD_SIGNATURE,
        "does not verify");
    // Neither root knows the checkpoint key id, and the ring accepts no approver.
    refused(
        () -> approvers.verify("ckpt-1", MESSAGE, alice.sign(MESSAGE)),
        DecisionRefused.Reason.UNTRUSTED_SIGNER,
        "not trusted");
    Throwable t = catchThrowable(() -> ring.requireTrusted(alice.keyId()));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
    assertThat(approvers.trusts(rita.keyId())).isFalse();
    assertThat(approvers.toString()).startsWith("TrustRoot[approvers=[").contains(alice.keyId());
    Throwable twice =
        catchThrowable(() -> TrustRoot.approvers(List.of(alice.trusted(), alice.trusted())));
    assertThat(twice).hasMessageContaining("appears twice");
    Throwable forged =
        catchThrowable(() -> new TrustedKey("0".repeat(16), "alice", alice.trusted().publicKey()));
    assertThat(forged).hasMessageContaining("is not the id of the key");
  }

  @Test
  @Rules("R1.4-key-length")
  void pemFilesArePkcs8At0600AndX509AndRefuseAnythingElse() throws IOException {
    byte[] seed = new SeededEntropy(7).bytes(32);
    SigningKey k = SigningKey.of("alice", Ed25519.generate(new SeededEntropy(7)));
    Path priv = dir.resolve("alice.key");
    Path pub = dir.resolve("alice.pub");
    Pem.writePrivate(priv, k);
    Pem.writePublic(pub, k.trusted());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(priv)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(priv))
        .startsWith("-----BEGIN PRIVATE KEY-----\n")
        .endsWith("-----END PRIVATE KEY-----\n");
    assertThat(Files.readString(pub)).startsWith("-----BEGIN PUBLIC KEY-----\n");
    SigningKey back = Pem.readPrivate(priv, "alice");
    assertThat(back.keyId()).isEqualTo(k.keyId());
    assertThat(back.sign(MESSAGE)).isEqualTo(k.sign(MESSAGE));
    assertThat(Pem.readPublic(pub, "alice").keyId()).isEqualTo(k.keyId());
    // A public key file holds no secret: the seed appears in no form.
    LeakScan scan = LeakScan.of(Map.of("seed", seed));
    scan.check("public key file", Files.readString(pub));
    assertThat(scan.findings()).isEmpty();
    refusedContract(() -> Pem.writePrivate(priv, k), "already exists; refusing to overwrite");
    Files.setPosixFilePermissions(priv, PosixFilePermissions.fromString("rw-r-----"));
    refusedContract(
        () -> Pem.readPrivate(priv, "alice"), "must not be accessible by group or others");
    refusedContract(() -> Pem.readPrivate(pub, "alice"), "must not be accessible");
    Files.setPosixFilePermissions(pub, PosixFilePermissions.fromString("rw-------"));
    refusedContract(() -> Pem.readPrivate(pub, "alice"), "not a PEM 'PRIVATE KEY' file");
    refusedContract(() -> Pem.readPublic(dir.resolve("none.pub"), "x"), "not a regular file");
    Path junk = dir.resolve("junk.pub");
    Files.writeString(junk, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
    refusedContract(() -> Pem.readPublic(junk, "x"), "not an Ed25519 X.509 public key");
  }

  private static SigningKey key(String label, long seed) {
    return SigningKey.of(label, Ed25519.generate(new SeededEntropy(seed)));
  }

  private static void refused(Runnable call, DecisionRefused.Reason reason, String part) {
    Throwable t = catchThrowable(call::run);
    assertThat(t).isInstanceOf(DecisionRefused.class).hasMessageContaining(part);
    assertThat(((DecisionRefused) t).reason()).isEqualTo(reason);
    assertThat(((DecisionRefused) t).code()).isEqualTo(ErrorCode.APPROVAL);
  }

  private static void refusedContract(Runnable call, String part) {
    Throwable t = catchThrowable(call::run);
    assertThat(t).isInstanceOf(RatchetException.class).hasMessageContaining(part);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
  }
}
