package dev.ratchet.harness.demo;

import dev.ratchet.seam.Seams;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The crash demo with the key-changing canary in every worker (SPEC D18), so that its checks must
 * fail: {@code java -cp <the ratchet jar> dev.ratchet.harness.demo.CanaryDemoMain}. A harness entry
 * point; {@code ratchet demo} has no such option.
 */
public final class CanaryDemoMain {
  private CanaryDemoMain() {}

  public static void main(String[] args) throws IOException {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    int code =
        Demo.run(
            Seams.systemClock(),
            Seams.secureEntropy(),
            out,
            Files.createTempDirectory("ratchet-demo-canary-"),
            true);
    out.flush();
    System.exit(code);
  }
}
