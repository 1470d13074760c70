package dev.ratchet.langchain4j.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.langchain4j.ReadOnlyTool;
import dev.ratchet.langchain4j.ReceiptedTool;
import dev.ratchet.langchain4j.UnreceiptedTool;
import dev.ratchet.store.Fence;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The base adapter plus the user's tools (built by {@code UserTools}). A tool's effect leaves the
 * environment's observation as it was, so its receipt's before and after are the live observation;
 * a receipted tool stores the receipt text with its effect and finds it again by key.
 */
public final class UserToolAdapter extends ForwardingAdapter {
  /** One tool: its spec and its handler (a read-only, receipted or unreceipted tool). */
  public record Tool(ActionSpec spec, Object handler) {}

  private final Map<String, Tool> tools = new LinkedHashMap<>();
  private final InstantSource clock;

  public UserToolAdapter(EnvironmentAdapter base, List<Tool> tools, InstantSource clock) {
    super(base);
    tools.forEach(t -> this.tools.put(t.spec().kind(), t));
    this.clock = clock;
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    List<ActionSpec> all = new ArrayList<>(delegate.actionSpecs());
    tools.values().forEach(t -> all.add(t.spec()));
    return List.copyOf(all);
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    Tool t = tools.get(kind);
    if (t == null) {
      return delegate.read(kind, arguments, fence);
    }
    return ((ReadOnlyTool) t.handler()).read(arguments);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    Tool t = tools.get(intent.kind());
    if (t == null) {
      return delegate.execute(intent, key, fence, approval);
    }
    Observation live = delegate.observe();
    if (t.handler() instanceof UnreceiptedTool u) {
      JsonObject result = u.perform(intent.arguments());
      return AdapterOutcome.executed(receipt(intent, key, fence, approval, live, result));
    }
    boolean[] performed = {false};
    String stored =
        ((ReceiptedTool) t.handler())
            .perform(
                key,
                intent.arguments(),
                result -> {
                  performed[0] = true;
                  return receipt(intent, key, fence, approval, live, result).toJson().toString();
                });
    Receipt r = parse(key, stored);
    if (!r.intentDigest().equals(intent.digest())) {
      return AdapterOutcome.conflict(r);
    }
    return performed[0] ? AdapterOutcome.executed(r) : AdapterOutcome.replayed(r);
  }

  @Override
  public Optional<Receipt> lookup(String key) {
    Optional<Receipt> found = delegate.lookup(key);
    if (found.isPresent()) {
      return found;
    }
    for (Tool t : tools.values()) {
      if (t.handler() instanceof ReceiptedTool r) {
        Optional<String> stored = r.lookup(key);
        if (stored.isPresent()) {
          return Optional.of(parse(key, stored.get()));
        }
      }
    }
    return Optional.empty();
  }

  private static Receipt parse(String key, String stored) {
    return Receipt.fromJson(Json.parse(stored), "tool_receipt[" + key + "]");
  }

  private Receipt receipt(
      WriteIntent intent,
      String key,
      Fence fence,
      ApprovalBinding approval,
      Observation live,
      JsonObject result) {
    String id =
        Canonical.sha256Hex(
            JsonObject.builder()
                .put("namespace", delegate.namespace())
                .put("tool", intent.kind())
                .put("idempotency_key", key)
                .build());
    return new Receipt(
        delegate.namespace(),
        delegate.adapterVersion(),
        id,
        key,
        intent.digest(),
        result,
        live.revision(),
        live.revision(),
        live.stateFingerprint(),
        live.stateFingerprint(),
        clock.millis(),
        fence.runId(),
        fence.leaseVersion(),
        approval.approvalFingerprint(),
        null);
  }
}
