package dev.ratchet.mcp.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.TaskSpec;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tools a run offers: one per action kind the task permits (listed in {@code action_kinds},
 * with its permission granted) that the adapter serves. Each says in its description what it does
 * to the world, whether it needs a human approval, and how to retry it; its annotations say the
 * same to clients that read hints instead of prose. Enforcement stays the runtime's.
 */
public final class ToolCatalog {
  private ToolCatalog() {}

  /** One tool: the kind it runs and the MCP descriptor. */
  public record Entry(ActionSpec spec, boolean approval, McpSchema.Tool tool) {
    public boolean write() {
      return spec.actionClass() == ActionClass.WRITE;
    }
  }

  public static List<Entry> of(
      TaskSpec task, List<ActionSpec> specs, ServerSettings settings, JsonBridge json) {
    List<Entry> out = new ArrayList<>();
    for (ActionSpec spec : specs) {
      if (!task.actionKinds().contains(spec.kind())
          || !task.permissions().contains(spec.permission())) {
        continue;
      }
      boolean approval = task.requiresApproval(spec.kind());
      boolean write = spec.actionClass() == ActionClass.WRITE;
      McpSchema.Tool tool =
          McpSchema.Tool.builder(spec.kind(), json.toMap(Schemas.input(spec, write)))
              .title(title(spec.kind()))
              .description(description(spec, approval, settings))
              .annotations(annotations(spec, settings.openWorld()))
              .build();
      out.add(new Entry(spec, approval, tool));
    }
    return List.copyOf(out);
  }

  /**
   * The four hints, truthfully: reads and verifications change nothing; a write is destructive when
   * its risk is not reversible; a receipted write is idempotent because a repeated call with the
   * same arguments (the same {@code call_id} included) returns the first outcome from the adapter's
   * receipt and never writes again (ADR 0080). An unreceipted write (D23) is not: no receipt can
   * answer a retry after a crash inside it (a crash there freezes the run; ADR 0071).
   */
  static McpSchema.ToolAnnotations annotations(ActionSpec spec, boolean openWorld) {
    boolean write = spec.actionClass() == ActionClass.WRITE;
    return McpSchema.ToolAnnotations.builder()
        .title(title(spec.kind()))
        .readOnlyHint(!write)
        .destructiveHint(write && !spec.risk().startsWith("reversible"))
        .idempotentHint(!write || spec.effectKind() == EffectKind.RECEIPTED)
        .openWorldHint(openWorld)
        .build();
  }

  static String title(String kind) {
    String t = kind.replace('_', ' ').replace('.', ' ').strip();
    return t.isEmpty() ? kind : t.substring(0, 1).toUpperCase(Locale.ROOT) + t.substring(1);
  }

  private static String description(ActionSpec spec, boolean approval, ServerSettings settings) {
    String kind = spec.kind();
    switch (spec.actionClass()) {
      case READ:
        return "Reads ("
            + kind
            + "); changes nothing. Calling it also refreshes what the run"
            + " believes the environment looks like, so call a read again after a"
            + " STALE_OBSERVATION error.";
      case VERIFY:
        return "Verifies ("
            + kind
            + ") the environment against the task's expectations and"
            + " returns the evidence; changes nothing.";
      default:
        break;
    }
    StringBuilder d =
        new StringBuilder()
            .append("Writes (")
            .append(kind)
            .append(", risk ")
            .append(spec.risk())
            .append(") exactly once per call_id, even if this server crashes: pass a new unique")
            .append(" call_id for each write you intend, and reuse the SAME call_id and")
            .append(" arguments when you retry after an error, timeout or disconnect; the retry")
            .append(" returns the original outcome. A reused call_id with different arguments is")
            .append(" refused.");
    if (approval) {
      d.append(" NEEDS A HUMAN APPROVAL: the first call returns status awaiting_approval and the")
          .append(" write waits for an operator to sign it (")
          .append(settings.approveCommand())
          .append("); call again later with the same call_id and arguments to get the outcome.")
          .append(" You cannot approve it yourself.");
    } else {
      d.append(" Runs without an approval.");
    }
    return d.toString();
  }
}
