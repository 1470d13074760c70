package dev.ratchet.testkit;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WorkspacePaths;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The teaching runtime's in-memory workspace, as a real {@link EnvironmentAdapter}: files, a
 * revision bumped by every committed write, authoritative receipts owned by the adapter, fencing by
 * lease version, approval expiry enforced on its own clock, and an effect ledger (D18) that counts
 * every time a write actually took effect. {@code append_file} is not naturally idempotent, so a
 * duplicate execution shows in the file content and in the ledger.
 *
 * <p>Thread-safe (one lock). The crash seam fires {@link CrashPoint#ADAPTER_AFTER_EXTERNAL_COMMIT}
 * after a write committed and before the answer returns.
 */
public final class InMemoryWorkspace implements EnvironmentAdapter {
  public static final String NAMESPACE = "memory-workspace";
  public static final String IDENTITY = "memory-agent";

  private final String instanceId;
  private final InstantSource clock;
  private final TreeMap<String, String> files = new TreeMap<>();
  private final Map<String, Receipt> receipts = new HashMap<>();
  private final Map<String, Long> newestFence = new HashMap<>();
  private final List<String> ledger = new ArrayList<>();
  private volatile CrashSeam crash = CrashSeam.NONE;
  private long revision;

  public InMemoryWorkspace(String instanceId, InstantSource clock, Map<String, String> initial) {
    this.instanceId = instanceId;
    this.clock = clock;
    initial.forEach((p, c) -> files.put(WorkspacePaths.require("path", p), c));
  }

  public void crashSeam(CrashSeam seam) {
    this.crash = seam;
  }

  @Override
  public String namespace() {
    return NAMESPACE;
  }

  @Override
  public int adapterVersion() {
    return 1;
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return List.of(
        ActionSpec.of(
            "read_file",
            ActionClass.READ,
            "workspace.read",
            "read_only",
            (a, p) ->
                WorkspacePaths.require(p + ".path", Fields.exact(a, p, "path").string("path")),
            InMemoryWorkspace::pathOf),
        ActionSpec.of(
            "write_file",
            ActionClass.WRITE,
            "workspace.write",
            "reversible_write",
            InMemoryWorkspace::pathAndContent,
            InMemoryWorkspace::pathOf),
        ActionSpec.of(
            "append_file",
            ActionClass.WRITE,
            "workspace.write",
            "irreversible_write",
            InMemoryWorkspace::pathAndContent,
            InMemoryWorkspace::pathOf),
        ActionSpec.of(
            "run_tests",
            ActionClass.VERIFY,
            "tests.run",
            "verification",
            (a, p) -> Fields.exact(a, p, "target").text("target"),
            a -> ((JsonString) a.get("target").get()).value()));
  }

  private static void pathAndContent(JsonObject a, String p) {
    Fields f = Fields.exact(a, p, "path", "content");
    WorkspacePaths.require(p + ".path", f.string("path"));
    f.string("content");
  }

  private static String pathOf(JsonObject a) {
    return ((JsonString) a.get("path").get()).value();
  }

  @Override
  public synchronized Observation observe() {
    return new Observation(instanceId, revision, fingerprint(), IDENTITY);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    AdapterOutcome out = commit(intent, key, fence, approval);
    if (out.kind() == AdapterOutcome.Kind.EXECUTED) {
      crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    }
    return out;
  }

  private synchronized AdapterOutcome commit(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    long newest = newestFence.getOrDefault(fence.runId(), 0L);
    if (fence.leaseVersion() < newest) {
      throw new RatchetException(
          ErrorCode.FENCED,
          "fencing token " + fence.leaseVersion() + " is older than " + newest + " for this run");
    }
    newestFence.put(fence.runId(), fence.leaseVersion());
    Receipt existing = receipts.get(key);
    if (existing != null) {
      return existing.intentDigest().equals(intent.digest())
          ? AdapterOutcome.replayed(existing)
          : AdapterOutcome.conflict(existing);
    }
    long now = clock.millis();
    if (approval.expiresAtMs() <= now) {
      throw new RatchetException(ErrorCode.APPROVAL, "approval expired before the write");
    }
    String path = pathOf(intent.arguments());
    String content = ((JsonString) intent.arguments().get("content").get()).value();
    long before = revision;
    String fpBefore = fingerprint();
    files.put(
        path,
        "append_file".equals(intent.kind()) ? files.getOrDefault(path, "") + content : content);
    revision++;
    ledger.add(key);
    Receipt r =
        new Receipt(
            NAMESPACE,
            1,
            Canonical.sha256Hex(
                JsonObject.builder()
                    .put("instance_id", instanceId)
                    .put("revision", revision)
                    .put("idempotency_key", key)
                    .build()),
            key,
            intent.digest(),
            JsonObject.builder()
                .put("path", path)
                .put("content_sha256", Canonical.sha256Hex(files.get(path)))
                .put("revision", revision)
                .build(),
            before,
            revision,
            fpBefore,
            fingerprint(),
            now,
            fence.runId(),
            fence.leaseVersion(),
            approval.approvalFingerprint(),
            null);
    receipts.put(key, r);
    return AdapterOutcome.executed(r);
  }

  @Override
  public synchronized Optional<Receipt> lookup(String key) {
    return Optional.ofNullable(receipts.get(key));
  }

  @Override
  public synchronized JsonObject read(String kind, JsonObject arguments, Fence fence) {
    String path = pathOf(arguments);
    String content = files.get(path);
    if (content == null) {
      throw RatchetException.contract("path: no file '" + path + "' in the workspace");
    }
    return JsonObject.builder()
        .put("path", path)
        .put("content", content)
        .put("content_sha256", Canonical.sha256Hex(content))
        .put("revision", revision)
        .build();
  }

  @Override
  public synchronized Verification verify(
      String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    JsonObject expected =
        Fields.exact(verifier, "verifier", "expected_files").obj("expected_files");
    List<JsonValue> mismatches = new ArrayList<>();
    for (Map.Entry<String, JsonValue> e : expected.members().entrySet()) {
      String want = ((JsonString) e.getValue()).value();
      if (!want.equals(files.get(e.getKey()))) {
        mismatches.add(new JsonString(e.getKey()));
      }
    }
    JsonObject detail = JsonObject.builder().put("mismatches", new JsonArray(mismatches)).build();
    return new Verification(mismatches.isEmpty(), revision, fingerprint(), detail);
  }

  // ---- for tests: the external system's own view -------------------------------------------

  /** How many times a write under {@code key} actually took effect (must never exceed 1). */
  public synchronized int effects(String key) {
    return (int) ledger.stream().filter(key::equals).count();
  }

  /** Every effect, in order, by idempotency key. */
  public synchronized List<String> ledger() {
    return List.copyOf(ledger);
  }

  public synchronized Map<String, String> files() {
    return Map.copyOf(files);
  }

  /**
   * An independent copy of this workspace as it is now (files, receipts, fences, ledger, revision):
   * the tamper campaign acts on a copy so every attempt starts from the same external state.
   */
  public synchronized InMemoryWorkspace copy() {
    InMemoryWorkspace c = new InMemoryWorkspace(instanceId, clock, Map.of());
    c.files.putAll(files);
    c.receipts.putAll(receipts);
    c.newestFence.putAll(newestFence);
    c.ledger.addAll(ledger);
    c.revision = revision;
    return c;
  }

  /** A change made by someone else: bumps the revision without a receipt (drift). */
  public synchronized void externalWrite(String path, String content) {
    files.put(path, content);
    revision++;
  }

  /** Corrupts a stored receipt in place (for receipt-drift tests). */
  public synchronized void replaceReceipt(String key, Receipt r) {
    receipts.put(key, r);
  }

  private String fingerprint() {
    JsonObject.Builder f = JsonObject.builder();
    files.forEach(f::put);
    return Canonical.sha256Hex(
        JsonObject.builder().put("files", f.build()).put("revision", revision).build());
  }
}
