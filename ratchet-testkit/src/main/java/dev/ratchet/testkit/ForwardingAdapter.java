package dev.ratchet.testkit;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.util.List;
import java.util.Optional;

/** Base of the fault-injecting adapter decorators: forwards everything to the real adapter. */
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
