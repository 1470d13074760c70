package dev.ratchet.harness.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.Ledgers;
import dev.ratchet.adapters.Workspaces;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.SeededEntropy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 part 5: the reference ledger serves only clients holding its client secret, so another
 * local process can neither write nor poison a run's fence; malformed headers are a 400.
 */
class LedgerServiceAuthTest {
  @TempDir Path dir;
  ReferenceService service;

  @BeforeEach
  void start() {
    service =
        ReferenceService.start(
            dir.resolve("ledger.db"), 0, Workspaces.clock(), new SeededEntropy(7));
  }

  @AfterEach
  void stop() {
    service.close();
  }

  @Test
  void theSecretIsAFileOnlyItsOwnerReadsAndSurvivesARestart() throws Exception {
    Path file = service.clientSecretFile();
    assertThat(file).isEqualTo(dir.resolve("ledger.db.client-secret"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(LedgerApi.clientSecret(file)).isEqualTo(service.clientSecret()).hasSize(64);
    String before = service.clientSecret();
    service.close();
    service =
        ReferenceService.start(
            dir.resolve("ledger.db"), 0, Workspaces.clock(), new SeededEntropy(8));
    assertThat(service.clientSecret()).isEqualTo(before);
  }

  @Test
  void aClientWithoutTheSecretCanNeitherWriteNorRaiseTheFence() throws Exception {
    WriteIntent order = Ledgers.createOrder("acct-1", "sku", 1, 100);
    Map<String, String> poison = headers(order, "run-1", "999999");
    for (String auth :
        new String[] {null, "Bearer wrong", "Bearer " + service.clientSecret() + "x"}) {
      if (auth == null) {
        poison.remove("Authorization");
      } else {
        poison.put("Authorization", auth);
      }
      HttpResponse<String> r = post(Canonical.string(order.arguments()), poison);
      assertThat(r.statusCode()).as(String.valueOf(auth)).isEqualTo(401);
      assertThat(r.body()).doesNotContain(service.clientSecret());
    }
    assertThat(get("/v1/state", null).statusCode()).isEqualTo(401);
    assertThat(service.orders()).isEmpty();

    IdempotentHttpAdapter stranger =
        IdempotentHttpAdapter.builder(service.uri(), LedgerApi.NAMESPACE)
            .actions(LedgerApi.actions())
            .clientSecret("not-the-secret")
            .build();
    assertThatThrownBy(() -> stranger.execute(order, "k1", fence(5), ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION);
              assertThat(e.getMessage()).contains("401").doesNotContain("not-the-secret");
            });
    // The fence was never raised by the strangers: the owner's version 1 is still accepted.
    assertThat(service.adapter().execute(order, "k1", fence(1), ApprovalBinding.NONE).kind())
        .isEqualTo(dev.ratchet.adapter.AdapterOutcome.Kind.EXECUTED);
    assertThat(service.orders()).hasSize(1);
  }

  @Test
  void malformedHeaderValuesAreA400NotA500() throws Exception {
    WriteIntent order = Ledgers.createOrder("acct-1", "sku", 1, 100);
    String body = Canonical.string(order.arguments());
    for (String version :
        new String[] {"9007199254740992", "99999999999999999999", "12abc", "-1", "0", "1.5", ""}) {
      HttpResponse<String> r = post(body, headers(order, "run-1", version));
      assertThat(r.statusCode()).as(version).isEqualTo(400);
      assertThat(r.body()).contains("Ratchet-Fence-Version");
    }
    Map<String, String> h = headers(order, "run-1", "1");
    h.put("Ratchet-Approval-Fingerprint", "a".repeat(64));
    h.put("Ratchet-Approval-Expires-At", "18446744073709551616");
    assertThat(post(body, h).statusCode()).isEqualTo(400);
    assertThat(service.orders()).isEmpty();
    assertThat(post(body, headers(order, "run-1", "9007199254740991")).statusCode()).isEqualTo(201);
  }

  private static Fence fence(long v) {
    return new Fence("run-1", "worker", v);
  }

  private Map<String, String> headers(WriteIntent intent, String run, String version) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Idempotency-Key", "k1");
    h.put("Ratchet-Intent-Digest", intent.digest());
    h.put("Ratchet-Fence-Run", run);
    h.put("Ratchet-Fence-Version", version);
    h.put("Authorization", "Bearer " + service.clientSecret());
    return h;
  }

  private HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(service.uri() + "/v1/orders"))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path, String auth) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(service.uri() + path)).GET();
    if (auth != null) {
      b.header("Authorization", auth);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
