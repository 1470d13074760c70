package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5: redaction covers every secret the process loaded, the adapter's credentials
 * included (a service's client secret): one that reaches evidence comes back as {@code
 * [redacted:<id>]} and a {@code redacted} trace event names it, never its bytes.
 */
class AdapterCredentialLeakTest {
  private static final String SECRET = "svc-secret-0123456789abcdef";

  /** The in-memory workspace, holding a credential as a service adapter would. */
  private static final class WithCredential extends ForwardingAdapter {
    WithCredential(InMemoryWorkspace ws) {
      super(ws);
    }

    @Override
    public Map<String, byte[]> credentials() {
      return Map.of("service-client-secret", SECRET.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void anAdapterCredentialThatReachesEvidenceIsRedacted() {
    RuntimeFixture f = RuntimeFixture.inMemory(61);
    TaskSpec task = f.task();
    try (Run run = f.ratchet("w1").start(task, "run-1", new WithCredential(f.workspace()))) {
      run.apply(run.action("a1", "write_file", Scenarios.write("app.py", SECRET + "\n")));
      JsonObject read = run.apply(run.action("r1", "read_file", Scenarios.read("app.py"))).result();
      assertThat(read.toString())
          .doesNotContain(SECRET)
          .contains("[redacted:service-client-secret]");
      assertThat(run.trace())
          .anySatisfy(
              e -> {
                assertThat(e.outcome().wireName()).isEqualTo("redacted");
                assertThat(e.detail().toString())
                    .contains("service-client-secret")
                    .doesNotContain(SECRET);
              });
    }
  }
}
