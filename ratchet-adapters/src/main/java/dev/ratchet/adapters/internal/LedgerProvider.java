package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.HttpAction;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference orders service over the idempotent HTTP protocol (docs/adapters.md), namespace
 * {@code ledger}. {@code connect} is {@code {"base_url": "http://HOST:PORT", "client_secret_file":
 * PATH}} — the file {@code serve-ledger} names, whose secret authenticates every request; {@code
 * task.environment} is {@code {"revision": N}} — the ledger revision the task starts from (0 for a
 * fresh service) — or {@code {}} for no expectation. The verifier is {@code {"expect": {account:
 * {field: value}}}}. Registered in {@code META-INF/services/dev.ratchet.adapter.AdapterProvider}.
 */
public final class LedgerProvider implements AdapterProvider {
  @Override
  public String namespace() {
    return LedgerApi.NAMESPACE;
  }

  @Override
  public List<ActionSpec> actionSpecs(JsonObject environment, Context context) {
    List<ActionSpec> out = new ArrayList<>();
    for (HttpAction a : LedgerApi.actions()) {
      out.add(a.spec());
    }
    return out;
  }

  @Override
  public JsonObject resolveConnect(JsonObject connect, Path baseDir, String path) {
    Fields f = Fields.exact(connect, path, "base_url", "client_secret_file");
    uri(f.text("base_url"), path + ".base_url");
    Path secret = baseDir.resolve(f.text("client_secret_file")).toAbsolutePath().normalize();
    return connect.with("client_secret_file", new dev.ratchet.json.JsonString(secret.toString()));
  }

  @Override
  public EnvironmentAdapter open(
      JsonObject environment, JsonObject connect, boolean prepare, Context context) {
    Fields f = Fields.exact(connect, "connect", "base_url", "client_secret_file");
    URI base = uri(f.text("base_url"), "connect.base_url");
    IdempotentHttpAdapter adapter =
        IdempotentHttpAdapter.builder(base, LedgerApi.NAMESPACE)
            .actions(LedgerApi.actions())
            .clientSecret(LedgerApi.clientSecret(Path.of(f.text("client_secret_file"))))
            .crashSeam(context.seam())
            .build();
    if (prepare && environment.has("revision")) {
      long want =
          Fields.exact(environment, "task.environment", "revision")
              .integer("revision", 0, Long.MAX_VALUE);
      long now = adapter.observe().revision();
      if (now != want) {
        throw RatchetException.contract(
            "task.environment.revision: the service at "
                + base
                + " is at revision "
                + now
                + ", the task starts from "
                + want
                + ": start a fresh reference service ('ratchet serve-ledger --db NEW_FILE')");
      }
    } else if (!environment.has("revision")) {
      Fields.exact(environment, "task.environment");
    }
    return adapter;
  }

  private static URI uri(String text, String where) {
    try {
      URI u = new URI(text);
      if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
        throw RatchetException.contract(where + ": '" + text + "' is not an http(s) URL");
      }
      return u;
    } catch (URISyntaxException e) {
      throw RatchetException.contract(where + ": '" + text + "' is not a URL");
    }
  }
}
