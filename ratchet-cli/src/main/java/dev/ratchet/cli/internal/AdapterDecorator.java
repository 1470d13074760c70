package dev.ratchet.cli.internal;

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

/** Base of the demo's adapter decorators: forwards every call to the real adapter. */
abstract class AdapterDecorator implements EnvironmentAdapter {
  final EnvironmentAdapter delegate;

  AdapterDecorator(EnvironmentAdapter delegate) {
    this.delegate = delegate;
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
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key, fence, approval);
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
