package dev.ratchet.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.util.List;
import java.util.Optional;

/**
 * The adapter of an operation that needs only the adapter's declarations (verify, re-sign): it
 * names the task's namespace and the action specs it was given, and refuses every environment call
 * with {@code INTERNAL}, so such an operation provably never touches the environment.
 */
record DetachedAdapter(String namespace, List<ActionSpec> actionSpecs)
    implements EnvironmentAdapter {
  DetachedAdapter {
    actionSpecs = List.copyOf(actionSpecs);
  }

  @Override
  public int adapterVersion() {
    return 0;
  }

  @Override
  public Observation observe() {
    throw refused();
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    throw refused();
  }

  @Override
  public Optional<Receipt> lookup(String idempotencyKey) {
    throw refused();
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    throw refused();
  }

  @Override
  public Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    throw refused();
  }

  private static RatchetException refused() {
    return new RatchetException(
        ErrorCode.INTERNAL, "this operation works without an environment adapter");
  }
}
