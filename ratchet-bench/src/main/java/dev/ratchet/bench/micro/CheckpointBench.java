package dev.ratchet.bench.micro;

import dev.ratchet.bench.Checkpoints;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.RunState;
import dev.ratchet.sign.KeyRing;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The CPU cost of one checkpoint, from 1 KB to 256 KB of signed envelope: what every commit pays
 * ({@link #encodeAndSign}: model to canonical JSON, checksum, HMAC) and what every recovery pays
 * ({@link #parseAndVerify}: strict parse, checksum, HMAC, strict model decode), with the canonical
 * form, the HMAC and the strict parse alone beside them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CheckpointBench {
  @Param({"1024", "4096", "16384", "65536", "262144"})
  public int bytes;

  private RunState state;
  private KeyRing ring;
  private long generation;
  private String envelope;
  private JsonObject payload;
  private byte[] canonicalEnvelope;

  @Setup
  public void setUp() {
    Checkpoints.Sample s = Checkpoints.ofSize(bytes);
    state = s.state();
    ring = s.ring();
    generation = s.generation();
    envelope = s.envelope();
    payload = state.toJson();
    canonicalEnvelope = envelope.getBytes(StandardCharsets.UTF_8);
  }

  /** Everything a commit spends on the checkpoint before the store sees it. */
  @Benchmark
  public String encodeAndSign() {
    return Checkpoints.encode(state, generation, ring);
  }

  /**
   * The envelope as {@code Checkpoint.seal} built it before issue 16: the payload canonicalised
   * three times (checksum, HMAC input, stored text). Same bytes as {@link #encodeAndSign}; kept as
   * the "before" of the single canonicalisation, measured in the same JMH run.
   */
  @Benchmark
  public String encodeAndSignThreeCanonicalisations() {
    JsonObject p = state.toJson();
    JsonObject unsigned =
        JsonObject.builder()
            .put("schema_version", RunState.SCHEMA_VERSION)
            .put("key_id", ring.activeKeyId())
            .put("generation", generation)
            .put("payload", p)
            .put("checksum", Canonical.sha256Hex(p))
            .build();
    KeyRing.Signature sig = ring.sign(Canonical.bytes(unsigned));
    return Canonical.string(unsigned.with("hmac", new JsonString(sig.hmacHex())));
  }

  /** Everything recovery spends on the checkpoint after the store returned it. */
  @Benchmark
  public RunState parseAndVerify() {
    return Checkpoints.verify(envelope, ring);
  }

  /** RFC 8785 canonical bytes of the payload alone (the model already converted to JSON). */
  @Benchmark
  public byte[] canonicalPayload() {
    return Canonical.bytes(payload);
  }

  /** HMAC-SHA256 of the canonical envelope alone. */
  @Benchmark
  public KeyRing.Signature hmac() {
    return ring.sign(canonicalEnvelope);
  }

  /** The strict parser alone (duplicate keys, depth, size and number checks), no model decode. */
  @Benchmark
  public JsonValue strictParse() {
    return Json.parse(envelope);
  }
}
