package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SecretKeys;
import dev.ratchet.testkit.LeakScan;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint signing (SPEC §3, D15): HMAC-SHA256 known answers, constant-time verification that is
 * simply false on anything malformed, the checkpoint key ring (rotate, re-sign, revoke), key
 * length, and key files. No error message made here contains any key, in any encoding. Human
 * decisions are Ed25519 ({@link Ed25519Test}); keys from environment variables are in {@link
 * SecretKeyEnvironmentTest}.
 */
class SigningTest {
  private static final byte[] MESSAGE = "ratchet checkpoint".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  /** Every key material used here, and every error message seen: scanned after each test. */
  private final Map<String, byte[]> secrets = new LinkedHashMap<>();

  private final List<Throwable> errors = new ArrayList<>();

  private byte[] material(String name, long seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    secrets.put(name, b.clone());
    return b;
  }

  private RatchetException refused(ThrowingCallable call, ErrorCode code, String... parts) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    RatchetException e = (RatchetException) t;
    assertThat(e.code()).as("code of: %s", e.getMessage()).isEqualTo(code);
    assertThat(e.getMessage()).contains(parts);
    errors.add(e);
    return e;
  }

  static String jdkHmac(byte[] key, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(message));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterEach
  void noErrorMessageContainsAnyKey() {
    LeakScan scan = LeakScan.of(secrets);
    for (int i = 0; i < errors.size(); i++) {
      scan.check("error #" + i, errors.get(i));
    }
    assertThat(scan.findings()).as("key material in error messages").isEmpty();
  }

  // ---------------------------------------------------------------- HMAC

  /** RFC 4231 §4.7 and §4.8: the test cases whose keys (131 bytes) meet the 32-byte minimum. */
  @Test
  @Rules("R1.4-key-length")
  void hmacMatchesRfc4231TestCases6And7() {
    byte[] key = new byte[131];
    Arrays.fill(key, (byte) 0xaa);
    secrets.put("rfc4231", key.clone());
    SecretKey k = SecretKey.checkpoint("rfc4231", key);
    byte[] case6 =
        "Test Using Larger Than Block-Size Key - Hash Key First"
            .getBytes(StandardCharsets.US_ASCII);
    byte[] case7 =
        ("This is a test using a larger than block-size key and a larger than block-size data."
                + " The key needs to be hashed before being used by the HMAC algorithm.")
            .getBytes(StandardCharsets.US_ASCII);
    assertThat(Hmac.hmacHex(k, case6))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    assertThat(Hmac.hmacHex(k, case7))
        .isEqualTo("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
    assertThat(Hmac.verifyHex(k, case6, Hmac.hmacHex(k, case6))).isTrue();
    // Test case 1 (a 20-byte key) is a known answer of the JDK Mac used as oracle below.
    byte[] case1Key = new byte[20];
    Arrays.fill(case1Key, (byte) 0x0b);
    assertThat(jdkHmac(case1Key, "Hi There".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }

  @Test
  @Rules("R1.4-key-length")
  void hmacAgreesWithTheJdkMacForSeededKeysAndMessages() {
    Random r = new Random(4231);
    for (int i = 0; i < 200; i++) {
      byte[] key = new byte[32 + r.nextInt(100)];
      r.nextBytes(key);
      byte[] message = new byte[r.nextInt(300)];
      r.nextBytes(message);
      SecretKey k = SecretKey.checkpoint("k" + i, key);
      assertThat(Hmac.hmacHex(k, message))
          .as("seed 4231, case %d", i)
          .isEqualTo(jdkHmac(key, message));
    }
  }

  @Test
  @Rules("R1.4-key-length")
  void verificationIsFalseForWrongOrMalformedMacs() {
    SecretKey k = SecretKey.checkpoint("k1", material("k1", 1, 32));
    SecretKey other = SecretKey.checkpoint("k1", material("other", 2, 32));
    String good = Hmac.hmacHex(k, MESSAGE);
    assertThat(good).matches("[0-9a-f]{64}");
    assertThat(Hmac.verifyHex(k, MESSAGE, good)).isTrue();
    // Every single-character change anywhere is refused.
    for (int i = 0; i < 64; i++) {
      char c = good.charAt(i);
      String changed = good.substring(0, i) + (c == '0' ? '1' : '0') + good.substring(i + 1);
      assertThat(Hmac.verifyHex(k, MESSAGE, changed)).as("position %d", i).isFalse();
    }
    for (String bad :
        List.of(
            good.toUpperCase(),
            good.substring(1),
            good + "0",
            "",
            " " + good.substring(1),
            "g" + good.substring(1),
            good.substring(0, 63) + "\u0660")) {
      assertThat(Hmac.verifyHex(k, MESSAGE, bad)).as("malformed %s", bad).isFalse();
    }
    assertThat(Hmac.verifyHex(k, MESSAGE, null)).isFalse();
    assertThat(Hmac.verifyHex(other, MESSAGE, good)).as("another key, same id").isFalse();
    assertThat(Hmac.verifyHex(k, "ratchet checkpoinT".getBytes(StandardCharsets.UTF_8), good))
        .isFalse();
  }

  @Test
  @Rules("R1.4-key-length")
  void keysShorterThan32BytesAreRefused() {
    // The key lengths of RFC 4231 test cases 1-4 (20, 4, 20, 25 bytes), and 31.
    for (int length : new int[] {0, 4, 20, 25, 31}) {
      byte[] key = new byte[length];
      Arrays.fill(key, (byte) 0x0b);
      refused(
          () -> SecretKey.checkpoint("short", key),
          ErrorCode.CONTRACT,
          "key 'short'",
          "at least 32 bytes");
      refused(
          () -> SecretKey.of("short", key, ErrorCode.CHECKPOINT),
          ErrorCode.CONTRACT,
          "at least 32 bytes");
    }
    refused(() -> SecretKey.checkpoint("none", null), ErrorCode.CONTRACT, "at least 32 bytes");
    SecretKey ok = SecretKey.checkpoint("ok", material("ok", 3, 32));
    assertThat(ok.length()).isEqualTo(SecretKey.MIN_BYTES).isEqualTo(32);
    assertThat(ok).hasToString("SecretKey[id=ok]");
    refused(() -> SecretKey.checkpoint(" ", new byte[32]), ErrorCode.CONTRACT, "key_id");
  }

  @Test
  @Rules("R1.4-key-length")
  void aKeyDoesNotChangeWhenItsSourceArrayDoes() {
    byte[] key = material("mutable", 4, 32);
    SecretKey k = SecretKey.checkpoint("m", key);
    String before = Hmac.hmacHex(k, MESSAGE);
    Arrays.fill(key, (byte) 0);
    assertThat(Hmac.hmacHex(k, MESSAGE)).isEqualTo(before);
  }

  // ---------------------------------------------------------------- key ring

  @Test
  @Rules("R1.4-key-length")
  void rotationSignsWithTheNewKeyAndOldSignaturesStillVerifyForResigning() {
    SecretKey k1 = SecretKey.checkpoint("ckpt-1", material("ckpt-1", 11, 32));
    SecretKey k2 = SecretKey.checkpoint("ckpt-2", material("ckpt-2", 12, 48));
    KeyRing ring1 = KeyRing.of(k1);
    KeyRing.Signature old = ring1.sign(MESSAGE);
    assertThat(old.keyId()).isEqualTo("ckpt-1");
    assertThat(old.hmacHex()).isEqualTo(jdkHmac(secrets.get("ckpt-1"), MESSAGE));
    assertThat(ring1.verify("ckpt-1", MESSAGE, old.hmacHex()).needsResigning()).isFalse();

    KeyRing ring2 = ring1.rotate(k2);
    assertThat(ring2.activeKeyId()).isEqualTo("ckpt-2");
    assertThat(ring2.keyIds()).containsExactly("ckpt-1", "ckpt-2");
    KeyRing.Verified v = ring2.verify("ckpt-1", MESSAGE, old.hmacHex());
    assertThat(v.keyId()).isEqualTo("ckpt-1");
    assertThat(v.byActiveKey()).isFalse();
    assertThat(v.needsResigning()).isTrue();
    KeyRing.Signature fresh = ring2.sign(MESSAGE);
    assertThat(fresh.keyId()).isEqualTo("ckpt-2");
    assertThat(fresh.hmacHex()).isEqualTo(jdkHmac(secrets.get("ckpt-2"), MESSAGE));
    assertThat(ring2.verify("ckpt-2", MESSAGE, fresh.hmacHex()).needsResigning()).isFalse();
    // The old ring is unchanged (rings are immutable) and does not know the new key.
    assertThat(ring1.activeKeyId()).isEqualTo("ckpt-1");
    refused(
        () -> ring1.verify("ckpt-2", MESSAGE, fresh.hmacHex()),
        ErrorCode.CHECKPOINT,
        "'ckpt-2'",
        "not trusted");
    // A signature under one id does not verify under another.
    refused(
        () -> ring2.verify("ckpt-2", MESSAGE, old.hmacHex()),
        ErrorCode.CHECKPOINT,
        "HMAC does not verify under key id 'ckpt-2'");
    refused(() -> ring2.rotate(k1), ErrorCode.CONTRACT, "'ckpt-1' is already in the key ring");
    refused(() -> KeyRing.of(k1, k1), ErrorCode.CONTRACT, "appears twice");
  }

  @Test
  @Rules("R1.4-key-length")
  void aRevokedKeyIsRefusedWithCheckpointNamingItsId() {
    SecretKey k1 = SecretKey.checkpoint("ckpt-1", material("ckpt-1", 21, 32));
    SecretKey k2 = SecretKey.checkpoint("ckpt-2", material("ckpt-2", 22, 32));
    String old = KeyRing.of(k1).sign(MESSAGE).hmacHex();
    KeyRing rotated = KeyRing.of(k1).rotate(k2);
    KeyRing revoked = rotated.revoke("ckpt-1");
    refused(
        () -> revoked.verify("ckpt-1", MESSAGE, old),
        ErrorCode.CHECKPOINT,
        "checkpoint key id 'ckpt-1' is revoked");
    refused(() -> revoked.requireTrusted("ckpt-1"), ErrorCode.CHECKPOINT, "'ckpt-1' is revoked");
    assertThat(revoked.keyIds()).containsExactly("ckpt-2");
    assertThat(revoked.revokedIds()).containsExactly("ckpt-1");
    // The active key cannot be revoked, and a revoked id never returns.
    refused(() -> revoked.revoke("ckpt-2"), ErrorCode.CONTRACT, "'ckpt-2' is active");
    refused(() -> revoked.rotate(k1), ErrorCode.CONTRACT, "'ckpt-1' is already in the key ring");
    // Revocation survives a further rotation.
    KeyRing later = revoked.rotate(SecretKey.checkpoint("ckpt-3", material("ckpt-3", 23, 32)));
    refused(() -> later.verify("ckpt-1", MESSAGE, old), ErrorCode.CHECKPOINT, "revoked");
    assertThat(later.verify("ckpt-2", MESSAGE, rotated.sign(MESSAGE).hmacHex()).needsResigning())
        .isTrue();
    assertThat(later.toString()).contains("ckpt-3").doesNotContain("ckpt-1");
  }

  @Test
  @Rules("R1.4-key-length")
  void anUnknownKeyIdIsRefused() {
    KeyRing ring = KeyRing.of(SecretKey.checkpoint("ckpt-1", material("ckpt-1", 31, 32)));
    refused(
        () -> ring.verify("ckpt-9", MESSAGE, "0".repeat(64)),
        ErrorCode.CHECKPOINT,
        "checkpoint key id 'ckpt-9' is not trusted");
    refused(() -> ring.requireTrusted("ckpt-9"), ErrorCode.CHECKPOINT, "'ckpt-9'");
    refused(
        () -> ring.verify("ckpt-1", MESSAGE, "not hex"),
        ErrorCode.CHECKPOINT,
        "HMAC does not verify under key id 'ckpt-1'");
  }

  // ---------------------------------------------------------------- key files

  private Path keyFile(String name, String content, String mode) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    return p;
  }

  @Test
  @Rules("R1.4-key-length")
  void keyFilesMustNotBeReadableByGroupOrOthers() throws IOException {
    byte[] key = material("file-key", 51, 32);
    String line = "hex:" + HexFormat.of().formatHex(key) + "\n";
    for (String mode :
        List.of("rw-r--r--", "rw-r-----", "rw----r--", "rw--w----", "rw-----w-", "rwx--x---")) {
      Path p = keyFile("open-" + mode.replace('-', '_'), line, mode);
      refused(
          () -> SecretKeys.fromFile("f", p, ErrorCode.CHECKPOINT),
          ErrorCode.CONTRACT,
          "key file " + p,
          "must not be accessible by group or others");
    }
    for (String mode : List.of("rw-------", "r--------")) {
      Path p = keyFile("closed-" + mode.replace('-', '_'), line, mode);
      SecretKey k = SecretKeys.fromFile("f", p, ErrorCode.CHECKPOINT);
      assertThat(Hmac.hmacHex(k, MESSAGE)).isEqualTo(jdkHmac(key, MESSAGE));
      assertThat(k).hasToString("SecretKey[id=f]");
    }
  }

  @Test
  @Rules("R1.4-key-length")
  void keyFilesTakeHexOrBase64AndRefuseAnythingElse() throws IOException {
    byte[] key = material("file-key", 52, 40);
    String hex = HexFormat.of().formatHex(key);
    String b64 = Base64.getEncoder().encodeToString(key);
    for (String content :
        List.of(
            "hex:" + hex,
            "hex:" + hex.toUpperCase() + "\n",
            "base64:" + b64 + "\n",
            "  base64:" + b64)) {
      Path p = keyFile("good", content, "rw-------");
      assertThat(Hmac.hmacHex(SecretKeys.fromFile("f", p, ErrorCode.CHECKPOINT), MESSAGE))
          .as("content form %s", content.substring(0, 6))
          .isEqualTo(jdkHmac(key, MESSAGE));
      Files.delete(p);
    }
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put(hex, "must start with 'hex:' or 'base64:'");
    bad.put("raw:" + hex, "must start with 'hex:' or 'base64:'");
    bad.put("HEX:" + hex, "must start with 'hex:' or 'base64:'");
    bad.put("hex:" + hex.substring(1), "key material is not valid for its prefix");
    bad.put("hex:zz" + hex.substring(2), "key material is not valid for its prefix");
    bad.put("base64:" + b64.substring(1) + "!", "key material is not valid for its prefix");
    bad.put("hex:" + hex.substring(0, 62), "at least 32 bytes");
    bad.put("base64:" + Base64.getEncoder().encodeToString(Arrays.copyOf(key, 31)), "at least 32");
    bad.put("", "must start with 'hex:' or 'base64:'");
    int i = 0;
    for (Map.Entry<String, String> e : bad.entrySet()) {
      Path p = keyFile("bad-" + i++, e.getKey(), "rw-------");
      refused(
          () -> SecretKeys.fromFile("f", p, ErrorCode.CHECKPOINT),
          ErrorCode.CONTRACT,
          e.getValue());
    }
    Path missing = dir.resolve("missing");
    refused(
        () -> SecretKeys.fromFile("f", missing, ErrorCode.CHECKPOINT),
        ErrorCode.CONTRACT,
        "not a regular file");
    refused(
        () -> SecretKeys.fromFile("f", dir, ErrorCode.CHECKPOINT),
        ErrorCode.CONTRACT,
        "not a regular file");
    Path target = keyFile("target", "hex:" + hex, "rw-------");
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    refused(
        () -> SecretKeys.fromFile("f", link, ErrorCode.CHECKPOINT),
        ErrorCode.CONTRACT,
        "not a regular file");
  }

  @Test
  @Rules("R1.4-key-length")
  void writeNewCreatesA0600FileAndRefusesToOverwrite() throws IOException {
    long seed = 61;
    byte[] expected = new byte[32];
    new Random(seed).nextBytes(expected); // SeededEntropy draws from new Random(seed)
    secrets.put("written", expected.clone());
    Path p = dir.resolve("checkpoint.key");
    SecretKeys.writeNew(p, new SeededEntropy(seed));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(p)).isEqualTo("hex:" + HexFormat.of().formatHex(expected) + "\n");
    SecretKey k = SecretKeys.fromFile("written", p, ErrorCode.CHECKPOINT);
    assertThat(Hmac.hmacHex(k, MESSAGE)).isEqualTo(jdkHmac(expected, MESSAGE));

    String before = Files.readString(p);
    secrets.put("second", new SeededEntropy(62).bytes(32));
    refused(
        () -> SecretKeys.writeNew(p, new SeededEntropy(62)),
        ErrorCode.CONTRACT,
        "already exists; refusing to overwrite");
    assertThat(Files.readString(p)).isEqualTo(before);
    refused(
        () -> SecretKeys.writeNew(dir.resolve("no/such/dir/k"), new SeededEntropy(63)),
        ErrorCode.CONTRACT,
        "cannot be written");

    SecretKey generated = SecretKeys.generate(new SeededEntropy(64), "gen", ErrorCode.CHECKPOINT);
    assertThat(generated.length()).isEqualTo(32);
    assertThat(generated.id()).isEqualTo("gen");
  }
}
