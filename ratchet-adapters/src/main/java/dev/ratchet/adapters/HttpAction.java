package dev.ratchet.adapters;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One action kind of an {@link IdempotentHttpAdapter}: its spec and the route it calls. A write is
 * a POST whose body is the canonical JSON of the arguments; a read or verification is a GET whose
 * path template takes {@code {name}} placeholders from string arguments (URL-encoded).
 */
public record HttpAction(ActionSpec spec, String method, String pathTemplate) {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  public HttpAction {
    Objects.requireNonNull(spec, "spec");
    boolean write = spec.actionClass() == ActionClass.WRITE;
    if (!(write ? "POST" : "GET").equals(method)) {
      throw new IllegalArgumentException(spec.kind() + ": writes are POST, reads and checks GET");
    }
    if (!pathTemplate.startsWith("/")) {
      throw new IllegalArgumentException(spec.kind() + ": path must start with '/'");
    }
  }

  /** A write: POST to a fixed path. */
  public static HttpAction post(ActionSpec spec, String path) {
    return new HttpAction(spec, "POST", path);
  }

  /** A read or verification: GET a path template such as {@code /v1/accounts/{account}}. */
  public static HttpAction get(ActionSpec spec, String template) {
    return new HttpAction(spec, "GET", template);
  }

  public String kind() {
    return spec.kind();
  }

  /** The path with every placeholder replaced by its (validated, URL-encoded) argument. */
  public String path(JsonObject arguments) {
    Matcher m = PLACEHOLDER.matcher(pathTemplate);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      if (!(arguments.get(m.group(1)).orElse(null) instanceof JsonString s)) {
        throw RatchetException.contract("arguments." + m.group(1) + ": required by the route");
      }
      m.appendReplacement(
          out, Matcher.quoteReplacement(URLEncoder.encode(s.value(), StandardCharsets.UTF_8)));
    }
    m.appendTail(out);
    return out.toString();
  }
}
