package dev.ratchet.agentdemo;

import dev.ratchet.ops.DemoProgram;
import dev.ratchet.ops.Services;
import java.io.PrintWriter;
import java.nio.file.Path;

/** {@code ratchet demo agent}: {@link AgentDemo}, found by the command line's ServiceLoader. */
public final class AgentDemoProgram implements DemoProgram {
  @Override
  public String name() {
    return "demo agent";
  }

  @Override
  public int run(Services services, Path dir, PrintWriter out) {
    return AgentDemo.run(out, dir);
  }
}
