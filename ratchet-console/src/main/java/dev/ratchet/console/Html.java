package dev.ratchet.console;

import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.Views;

/** Escaping and the page frame; every page is rendered on the server, every asset from the jar. */
final class Html {
  private Html() {}

  /**
   * HTML-escaped text in which every character a reader cannot see or that reorders what they see
   * (bidi overrides and isolates such as U+202E, zero-width and other format characters, controls
   * but newline and tab, separators, non-ASCII spaces, private-use and unpaired surrogates) is
   * shown as a visible escape: U+202E reads as the six characters backslash, u, 2, 0, 2, E (D30).
   * Agent-written text must read on the page as it is signed.
   */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints()
        .forEach(
            c -> {
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
                  if (hidden(c)) {
                    b.append("<span class=\"hidden-char\">")
                        .append(String.format(java.util.Locale.ROOT, "\\u%04X", c))
                        .append("</span>");
                  } else {
                    b.appendCodePoint(c);
                  }
              }
            });
    return b.toString();
  }

  /** True for a code point shown escaped by {@link #esc}. */
  static boolean hidden(int c) {
    if (c == '\n' || c == '\t') {
      return false;
    }
    switch (Character.getType(c)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.PRIVATE_USE:
      case Character.SURROGATE:
      case Character.UNASSIGNED:
        return true;
      case Character.SPACE_SEPARATOR:
        return c != ' ';
      default:
        // Fillers that render as nothing though they are letters or symbols.
        return c == 0x115F || c == 0x1160 || c == 0x3164 || c == 0xFFA0 || c == 0x2800;
    }
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
        + "<link rel=\"stylesheet\" href=\"/assets/console.css\">"
        + "<script src=\"/assets/console.js\" defer></script></head><body>"
        + "<header><a class=\"brand\" href=\"/\">Ratchet console</a>"
        + "<nav><a href=\"/\">Runs</a><a href=\"/review\">Review queue</a>"
        + "<a href=\"/keys\">Keys</a><a href=\"/api/runs\">API</a></nav></header><main>"
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
