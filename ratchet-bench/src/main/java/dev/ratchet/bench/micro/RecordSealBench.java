package dev.ratchet.bench.micro;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sealing one record of a write step (SPEC D20) as the journal does it ({@link #sealText}: the body
 * canonicalised once, the MAC spliced in, the key's per-thread Mac) beside the path before issue 38
 * 3(d) ({@link #sealThenCanonicalise}: the body canonicalised for the digest and again for the
 * stored text), and the HMAC and SHA-256 alone with a reused and with a fresh {@code Mac} and
 * {@code MessageDigest}, in the same run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RecordSealBench {
  /** Characters of written content carried by the record (figure 7 writes 512). */
  @Param({"64", "512"})
  public int contentChars;

  private KeyRing ring;
  private SecretKey key;
  private byte[] material;
  private JsonObject body;
  private byte[] message;

  @Setup
  public void setUp() {
    material = new byte[32];
    new Random(38).nextBytes(material);
    key = SecretKey.of("bench-ckpt", material, ErrorCode.CHECKPOINT);
    ring = KeyRing.of(key);
    body =
        JsonObject.builder()
            .put("sequence", 12)
            .put("at_ms", 1_700_000_000_000L)
            .put("action_id", "w11")
            .put("kind", "write_file")
            .put("outcome", "executed")
            .put(
                "detail",
                JsonObject.builder()
                    .put("path", "state.txt")
                    .put("content", "11:" + "x".repeat(contentChars))
                    .build())
            .build();
    message = Canonical.bytes(body);
  }

  /** What the journal does now: one canonicalisation, the MAC spliced into the text. */
  @Benchmark
  public String sealText() {
    return RecordMac.sealText(ring, "bench", "run-1", RecordSet.TRACE, 12, "12", body);
  }

  /** The journal before: seal the object, then canonicalise the sealed object again. */
  @Benchmark
  public String sealThenCanonicalise() {
    return Canonical.string(
        RecordMac.seal(ring, "bench", "run-1", RecordSet.TRACE, 12, "12", body));
  }

  /** HMAC-SHA256 through the key's per-thread Mac. */
  @Benchmark
  public KeyRing.Signature hmacReusedMac() {
    return ring.sign(message);
  }

  /**
   * HMAC-SHA256 as {@code Hmac} computed it before: {@code Mac.getInstance} and init per message.
   */
  @Benchmark
  public String hmacFreshMac() throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(message));
  }

  /** SHA-256 through the per-thread digest. */
  @Benchmark
  public String sha256ReusedDigest() {
    return Canonical.sha256Hex(message);
  }

  /**
   * SHA-256 as {@code Canonical} computed it before: {@code MessageDigest.getInstance} per call.
   */
  @Benchmark
  public String sha256FreshDigest() throws GeneralSecurityException {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(message));
  }
}
