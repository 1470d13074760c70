package dev.ratchet.harness.demo;

import dev.ratchet.ops.DemoProgram;
import dev.ratchet.ops.Services;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * {@code ratchet demo}: the crash demo ({@link Demo}), found by the command line's ServiceLoader.
 */
public final class CrashDemoProgram implements DemoProgram {
  @Override
  public String name() {
    return "demo";
  }

  @Override
  public int run(Services services, Path dir, PrintWriter out) {
    return Demo.run(services.clock(), services.entropy(), out, dir, false);
  }
}
