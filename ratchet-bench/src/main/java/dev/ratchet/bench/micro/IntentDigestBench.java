package dev.ratchet.bench.micro;

import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The intent digest (SPEC D2): SHA-256 of the canonical {@code {namespace, kind, arguments, risk}},
 * computed once per write proposal, for argument sizes from a short edit to a 64 KB file.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IntentDigestBench {
  @Param({"64", "1024", "65536"})
  public int contentBytes;

  private WriteIntent intent;

  @Setup
  public void setUp() {
    StringBuilder content = new StringBuilder(contentBytes);
    for (int i = 0; content.length() < contentBytes; i++) {
      content.append("line ").append(i).append(": \"quoted\" \u00e9t\u00e9\n");
    }
    content.setLength(contentBytes);
    intent =
        new WriteIntent(
            "memory-workspace",
            "write_file",
            JsonObject.builder()
                .put("path", "src/app.py")
                .put("content", content.toString())
                .build(),
            "reversible_write");
  }

  @Benchmark
  public String digest() {
    return intent.digest();
  }
}
