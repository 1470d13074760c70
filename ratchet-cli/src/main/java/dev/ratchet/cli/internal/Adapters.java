package dev.ratchet.cli.internal;

import java.util.List;

/** The adapters the production command line offers. */
public final class Adapters {
  /** The namespace of the workspace adapter (a real directory). */
  public static final String WORKSPACE_NAMESPACE = "workspace";

  private Adapters() {}

  public static AdapterRegistry standard() {
    return new AdapterRegistry(List.of());
  }
}
