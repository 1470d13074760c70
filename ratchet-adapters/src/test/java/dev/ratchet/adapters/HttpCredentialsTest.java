package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 5: the HTTP adapter hands its client secret to the runtime for redaction (and only
 * for that), so a service that echoes it into evidence is redacted like a loaded key.
 */
class HttpCredentialsTest {
  @Test
  void theClientSecretIsAnAdapterCredentialAndNothingElseIs() {
    String secret = "0123456789abcdef0123456789abcdef";
    IdempotentHttpAdapter with = LedgerApi.adapter(URI.create("http://127.0.0.1:9/"), secret);
    assertThat(with.credentials()).containsOnlyKeys("service-client-secret");
    assertThat(new String(with.credentials().get("service-client-secret"), StandardCharsets.UTF_8))
        .isEqualTo(secret);
    // A copy each time: zeroing one does not change the adapter's.
    java.util.Arrays.fill(with.credentials().get("service-client-secret"), (byte) 0);
    assertThat(with.credentials().get("service-client-secret")[0]).isEqualTo((byte) '0');
  }
}
