package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.util.List;
import java.util.Optional;

/**
 * The boundary to the world outside (SPEC D9). The adapter owns authoritative receipts: a write
 * executed under an idempotency key leaves exactly one receipt, retrievable by {@link #lookup}
 * after any crash of the caller.
 *
 * <p>Contract, checked by {@code EnvironmentAdapterContract} in the testkit:
 *
 * <ul>
 *   <li>same key + same intent digest: no new effect, the stored receipt ({@code REPLAYED});
 *   <li>same key + different digest: no effect, {@code CONFLICT} with the stored receipt;
 *   <li>a fence whose lease version is older than the newest seen for the run (and object) is
 *       refused with {@code FENCED}, nothing changed;
 *   <li>an approval whose expiry has passed (on the adapter's own clock) is refused with {@code
 *       APPROVAL}, nothing changed;
 *   <li>{@code STALE_OBSERVATION} from {@code execute} means a precondition the intent's arguments
 *       state does not hold (a file's expected digest), checked before anything was done: no
 *       effect, the key unused. The runtime withdraws such an intent. An adapter that cannot
 *       promise "no effect" for a refusal must use another code.
 * </ul>
 *
 * Implementations are thread-safe; {@code execute} returns only once its receipt is durable.
 */
public interface EnvironmentAdapter {
  /** The adapter namespace, part of every intent digest and receipt. */
  String namespace();

  int adapterVersion();

  /** The action kinds this adapter offers (finish and cancel belong to the runtime). */
  List<ActionSpec> actionSpecs();

  /** The environment now: instance, revision, state fingerprint and identity. */
  Observation observe();

  /**
   * Why the adapter itself finds its environment changed in a way no write explains — a control
   * structure it refuses, such as a workspace repository that redirects outside it (SPEC D29) — or
   * empty. The runtime puts it into a drift freeze's evidence; the state fingerprint already
   * carries the change.
   */
  default Optional<String> driftEvidence() {
    return Optional.empty();
  }

  /**
   * The secrets this adapter holds to reach its environment (a service's client secret), by a short
   * id, so the runtime can redact them from evidence as it redacts its own keys (D27): the runtime
   * never stores, logs or sends them. Default: none. Implementations return copies.
   */
  default java.util.Map<String, byte[]> credentials() {
    return java.util.Map.of();
  }

  /** Performs a write at most once per key (see the class contract). */
  AdapterOutcome execute(
      WriteIntent intent, String idempotencyKey, Fence fence, ApprovalBinding approval);

  /** The receipt stored under {@code idempotencyKey}, if a write with it ever committed. */
  Optional<Receipt> lookup(String idempotencyKey);

  /** Performs a READ-class action and returns its result. */
  JsonObject read(String kind, JsonObject arguments, Fence fence);

  /** Performs a VERIFY-class action against the task's verifier expectations. */
  Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence);
}
