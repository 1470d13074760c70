package dev.ratchet.cli.internal;

import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.seam.Entropy;
import java.time.InstantSource;
import java.util.List;

/** The adapters the production command line offers. */
public final class Adapters {
  /** The namespace of the workspace adapter (a real directory). */
  public static final String WORKSPACE_NAMESPACE = WorkspaceAdapter.NAMESPACE;

  private Adapters() {}

  public static AdapterRegistry standard(InstantSource clock, Entropy entropy) {
    return new AdapterRegistry(
        List.of(new WorkspaceProvider(clock, entropy), new LedgerProvider()));
  }
}
