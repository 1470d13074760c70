package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.util.List;
import java.util.Optional;

/**
 * Base of adapter decorators (fault injection in tests and harnesses, instrumentation): forwards
 * every call to {@code delegate}; a subclass overrides what it changes.
 */
public abstract class ForwardingAdapter implements EnvironmentAdapter {
  protected final EnvironmentAdapter delegate;

  protected ForwardingAdapter(EnvironmentAdapter delegate) {
    this.delegate = delegate;
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key, fence, approval);
  }

  @Override
  public String namespace() {
    return delegate.namespace();
  }

  @Override
  public int adapterVersion() {
    return delegate.adapterVersion();
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return delegate.actionSpecs();
  }

  @Override
  public Observation observe() {
    return delegate.observe();
  }

  @Override
  public Optional<String> driftEvidence() {
    return delegate.driftEvidence();
  }

  @Override
  public java.util.Map<String, byte[]> credentials() {
    return delegate.credentials();
  }

  @Override
  public Optional<Receipt> lookup(String key) {
    return delegate.lookup(key);
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    return delegate.read(kind, arguments, fence);
  }

  @Override
  public Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    return delegate.verify(kind, arguments, verifier, fence);
  }
}
