package dev.ratchet.langchain4j;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.langchain4j.internal.UserToolAdapter;
import java.time.Clock;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The user's own tools beside a run's adapter (SPEC D23, ADR 0071): each declares its kind, and
 * each call runs as a Ratchet action, journaled and keyed like the adapter's. The model sees them
 * as tools with the given JSON-schema parameters; a task allows them like any kind (its name in the
 * action kinds and targets, {@link #READ_PERMISSION} or {@link #WRITE_PERMISSION}).
 *
 * <pre>{@code
 * EnvironmentAdapter adapter =
 *     UserTools.on(workspace)
 *         .readOnly("weather", schema, args -> forecast(args))
 *         .receipted("send_invoice", schema, invoices)   // looks effects up by key
 *         .unreceipted("deploy", schema, args -> deploy(args)) // at most once
 *         .adapter();
 * }</pre>
 */
public final class UserTools {
  public static final String READ_PERMISSION = "tools.read";
  public static final String WRITE_PERMISSION = "tools.write";
  public static final String RECEIPTED_RISK = "external_write";
  public static final String UNRECEIPTED_RISK = "irreversible_write";

  private final EnvironmentAdapter base;
  private final List<UserToolAdapter.Tool> tools = new ArrayList<>();
  private final Set<String> names = new HashSet<>();
  private InstantSource clock = Clock.systemUTC();

  private UserTools(EnvironmentAdapter base) {
    this.base = Objects.requireNonNull(base, "base");
    base.actionSpecs().forEach(s -> names.add(s.kind()));
  }

  public static UserTools on(EnvironmentAdapter base) {
    return new UserTools(base);
  }

  /** The clock receipts are stamped with (approval expiry is checked against it). */
  public UserTools clock(InstantSource c) {
    this.clock = Objects.requireNonNull(c, "clock");
    return this;
  }

  public UserTools readOnly(String name, ArgumentSchema schema, ReadOnlyTool tool) {
    return add(
        ActionSpec.readOnly(name, READ_PERMISSION, schema, a -> name),
        Objects.requireNonNull(tool, "tool"));
  }

  public UserTools receipted(String name, ArgumentSchema schema, ReceiptedTool tool) {
    return add(
        ActionSpec.receipted(name, WRITE_PERMISSION, RECEIPTED_RISK, schema, a -> name),
        Objects.requireNonNull(tool, "tool"));
  }

  public UserTools unreceipted(String name, ArgumentSchema schema, UnreceiptedTool tool) {
    return add(
        ActionSpec.unreceipted(name, WRITE_PERMISSION, UNRECEIPTED_RISK, schema, a -> name),
        Objects.requireNonNull(tool, "tool"));
  }

  /** The run's adapter: the base adapter's kinds and these tools. */
  public EnvironmentAdapter adapter() {
    return new UserToolAdapter(base, tools, clock);
  }

  private UserTools add(ActionSpec spec, Object handler) {
    if (!names.add(spec.kind())) {
      throw RatchetException.contract("tool '" + spec.kind() + "': the name is already taken");
    }
    tools.add(new UserToolAdapter.Tool(spec, handler));
    return this;
  }
}
