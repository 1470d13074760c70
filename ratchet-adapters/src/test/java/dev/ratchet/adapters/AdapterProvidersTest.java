package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapters are found through ServiceLoader, by namespace, and open what a task names. */
class AdapterProvidersTest {
  private static final AdapterProvider.Context CONTEXT =
      new AdapterProvider.Context(
          InstantSource.fixed(Instant.parse("2026-07-18T09:00:00Z")),
          Seams.secureEntropy(),
          CrashSeam.NONE);

  @TempDir Path dir;

  private static Map<String, AdapterProvider> providers() {
    return ServiceLoader.load(AdapterProvider.class).stream()
        .map(ServiceLoader.Provider::get)
        .collect(Collectors.toMap(AdapterProvider::namespace, Function.identity()));
  }

  @Test
  void theWorkspaceAndLedgerProvidersAreRegistered() {
    assertThat(providers()).containsOnlyKeys(WorkspaceAdapter.NAMESPACE, LedgerApi.NAMESPACE);
  }

  @Test
  void theWorkspaceProviderResolvesItsDirectoryAndOpensAPreparedWorkspace() throws Exception {
    AdapterProvider p = providers().get(WorkspaceAdapter.NAMESPACE);
    JsonObject connect =
        p.resolveConnect(JsonObject.builder().put("directory", "ws").build(), dir, "connect");
    assertThat(connect.get("directory").orElseThrow().toString()).contains(dir.toString());
    JsonObject environment =
        JsonObject.builder()
            .put("files", JsonObject.builder().put("app.py", "print(1)\n").build())
            .build();
    assertThat(p.actionSpecs(environment, CONTEXT)).isNotEmpty();
    try (AutoCloseable a = (AutoCloseable) p.open(environment, connect, true, CONTEXT)) {
      assertThat(a).isInstanceOf(WorkspaceAdapter.class);
      assertThat(Files.readString(dir.resolve("ws/app.py"))).isEqualTo("print(1)\n");
    }
  }

  @Test
  void theLedgerProviderRefusesAConnectThatIsNoHttpUrl() {
    AdapterProvider p = providers().get(LedgerApi.NAMESPACE);
    assertThat(p.actionSpecs(JsonObject.EMPTY, CONTEXT)).isNotEmpty();
    Throwable t =
        catchThrowable(
            () ->
                p.resolveConnect(
                    JsonObject.builder()
                        .put("base_url", "ftp://x")
                        .put("client_secret_file", "ledger.db.client-secret")
                        .build(),
                    dir,
                    "connect"));
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(t).hasMessageContaining("connect.base_url");
    assertThat(List.of(p.namespace())).containsExactly("ledger");
  }
}
