package dev.ratchet.adapter;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.util.List;
import java.util.Optional;

/**
 * The adapter of an operation that needs only the adapter's declarations (verify, re-sign, and
 * every operator surface: status, inspect, approve, review, the console; SPEC D30): it names the
 * task's namespace and the action specs it was given, and refuses every environment call with
 * {@code INTERNAL}, so such an operation provably never runs adapter tooling against the
 * environment.
 */
public record DeclaredAdapter(String namespace, List<ActionSpec> actionSpecs)
    implements EnvironmentAdapter {
  public DeclaredAdapter {
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
