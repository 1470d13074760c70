package dev.ratchet.console;

import dev.ratchet.cli.internal.Views;
import dev.ratchet.json.JsonObject;

/** Escaping and the page frame; every page is rendered on the server, every asset from the jar. */
final class Html {
  private Html() {}

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<':
          b.append("&lt;");
          break;
        case '>':
          b.append("&gt;");
          break;
        case '&':
          b.append("&amp;");
          break;
        case '"':
          b.append("&quot;");
          break;
        case '\'':
          b.append("&#39;");
          break;
        default:
          b.append(c);
      }
    }
    return b.toString();
  }

  /** The escaped text of a member (see {@link Views#text}). */
  static String t(JsonObject o, String key) {
    return esc(Views.text(o, key));
  }

  static String page(String title, String body) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + esc(title)
        + " · Ratchet console</title>"
        + "<link rel=\"stylesheet\" href=\"/assets/console.css\"></head><body>"
        + "<header><a class=\"brand\" href=\"/\">Ratchet console</a>"
        + "<nav><a href=\"/\">Runs</a><a href=\"/review\">Review queue</a>"
        + "<a href=\"/api/runs\">API</a></nav></header><main>"
        + "<h1>"
        + esc(title)
        + "</h1>"
        + body
        + "</main></body></html>";
  }

  static String badge(String phase) {
    return "<span class=\"badge " + esc(phase) + "\">" + esc(phase) + "</span>";
  }

  /** A JSON value indented two spaces a level, so evidence reads side by side. */
  static String pretty(dev.ratchet.json.JsonValue v) {
    StringBuilder b = new StringBuilder();
    pretty(v, 0, b);
    return b.toString();
  }

  private static void pretty(dev.ratchet.json.JsonValue v, int depth, StringBuilder b) {
    String pad = "  ".repeat(depth + 1);
    if (v instanceof JsonObject o && o.size() > 0) {
      b.append("{\n");
      int i = 0;
      for (String k : new java.util.TreeMap<>(o.members()).keySet()) {
        b.append(pad)
            .append(dev.ratchet.json.Canonical.string(new dev.ratchet.json.JsonString(k)))
            .append(": ");
        pretty(o.get(k).orElseThrow(), depth + 1, b);
        b.append(++i < o.size() ? ",\n" : "\n");
      }
      b.append("  ".repeat(depth)).append('}');
    } else if (v instanceof dev.ratchet.json.JsonArray a && !a.items().isEmpty()) {
      b.append("[\n");
      for (int i = 0; i < a.items().size(); i++) {
        b.append(pad);
        pretty(a.items().get(i), depth + 1, b);
        b.append(i + 1 < a.items().size() ? ",\n" : "\n");
      }
      b.append("  ".repeat(depth)).append(']');
    } else {
      b.append(dev.ratchet.json.Canonical.string(v));
    }
  }

  static String pre(String text) {
    return "<pre>" + esc(text) + "</pre>";
  }
}
