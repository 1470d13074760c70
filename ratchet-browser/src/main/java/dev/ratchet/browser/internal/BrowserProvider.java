package dev.ratchet.browser.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.browser.BrowserAdapter;
import dev.ratchet.browser.PageForm;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Pages behind an idempotent HTTP service, namespace {@code browser} (docs/browser.md). {@code
 * connect} is {@code {"base_url": "http://HOST:PORT", "client_secret_file": PATH}} (local, like the
 * ledger's); {@code task.environment} is {@code {"url_prefixes": ["/web/"], "forms": {ID:
 * {"submit": CONTROL_ID, "receipted": true}}}} — signed with the task, so a run cannot widen where
 * its browser goes or which forms it may submit. Registered in {@code
 * META-INF/services/dev.ratchet.adapter.AdapterProvider}.
 */
public final class BrowserProvider implements AdapterProvider {
  @Override
  public String namespace() {
    return BrowserAdapter.NAMESPACE;
  }

  @Override
  public List<ActionSpec> actionSpecs(JsonObject environment, Context context) {
    Fields f = Fields.exact(environment, "task.environment", "url_prefixes", "forms");
    return BrowserActions.specs(forms(f.obj("forms")), prefixes(f));
  }

  @Override
  public JsonObject resolveConnect(JsonObject connect, Path baseDir, String path) {
    Fields f = Fields.exact(connect, path, "base_url", "client_secret_file");
    origin(f.text("base_url"), path + ".base_url");
    Path secret = baseDir.resolve(f.text("client_secret_file")).toAbsolutePath().normalize();
    return connect.with("client_secret_file", new JsonString(secret.toString()));
  }

  @Override
  public EnvironmentAdapter open(
      JsonObject environment, JsonObject connect, boolean prepare, Context context) {
    Fields c = Fields.exact(connect, "connect", "base_url", "client_secret_file");
    Fields e = Fields.exact(environment, "task.environment", "url_prefixes", "forms");
    BrowserAdapter.Builder b =
        BrowserAdapter.builder(origin(c.text("base_url"), "connect.base_url"))
            .clientSecret(LedgerApi.clientSecret(Path.of(c.text("client_secret_file"))))
            .crashSeam(context.seam());
    prefixes(e).forEach(b::pathPrefix);
    forms(e.obj("forms")).values().forEach(b::form);
    return b.build();
  }

  private static List<String> prefixes(Fields f) {
    List<String> out =
        f.array("url_prefixes").items().stream()
            .map(v -> v instanceof JsonString s ? s.value() : "")
            .toList();
    for (String p : out) {
      if (!p.startsWith("/") || !p.endsWith("/")) {
        throw RatchetException.contract(
            "task.environment.url_prefixes: '" + p + "' must start and end with '/'");
      }
    }
    return out;
  }

  private static Map<String, PageForm> forms(JsonObject forms) {
    java.util.LinkedHashMap<String, PageForm> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, JsonValue> e : forms.members().entrySet()) {
      Fields f =
          Fields.exact(e.getValue(), "task.environment.forms." + e.getKey(), "submit", "receipted");
      out.put(e.getKey(), new PageForm(e.getKey(), f.text("submit"), f.bool("receipted")));
    }
    return out;
  }

  private static URI origin(String text, String where) {
    try {
      URI u = new URI(text);
      if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme()))
          || u.getHost() == null
          || !(u.getRawPath() == null || u.getRawPath().isEmpty() || u.getRawPath().equals("/"))) {
        throw RatchetException.contract(where + ": '" + text + "' is not an http(s) origin");
      }
      return u;
    } catch (java.net.URISyntaxException ex) {
      throw RatchetException.contract(where + ": '" + text + "' is not a URL");
    }
  }
}
