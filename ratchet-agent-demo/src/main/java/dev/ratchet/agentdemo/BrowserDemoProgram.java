package dev.ratchet.agentdemo;

import dev.ratchet.ops.DemoProgram;
import dev.ratchet.ops.Services;
import java.io.PrintWriter;
import java.nio.file.Path;

/** {@code ratchet demo browser}: {@link BrowserDemo}, found by the command line's ServiceLoader. */
public final class BrowserDemoProgram implements DemoProgram {
  @Override
  public String name() {
    return "demo browser";
  }

  @Override
  public int run(Services services, Path dir, PrintWriter out) {
    return BrowserDemo.run(out, dir);
  }
}
