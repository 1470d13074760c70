package dev.ratchet.console;

import static dev.ratchet.console.Html.esc;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import java.util.Map;

/** The pages that lead to a browser signature (D30): the Keys page and a decision's preview. */
final class SigningPages {
  private SigningPages() {}

  /** What will be signed, in full, and the form that signs exactly it. */
  static String preview(
      String what,
      String action,
      JsonObject payload,
      JsonValue arguments,
      Map<String, String> fields,
      String note) {
    StringBuilder b = new StringBuilder();
    boolean fork = what.equals("fork");
    if (arguments != null) {
      // Formatted canonical JSON: members sorted, one a line, hidden characters escaped.
      b.append("<h2>Arguments of the write</h2><pre id=\"arguments\">")
          .append(esc(Html.pretty(arguments)))
          .append("</pre>");
    }
    // The page signs exactly these bytes (data-payload), shown as their text.
    b.append("<p>You are about to sign this ")
        .append(esc(what))
        .append(" in this browser with your own key and ")
        // A fork is no inbox item: the POST creates the new run.
        .append(fork ? "create the new run with it" : "deliver it to the run's inbox")
        .append(". Read it in full:</p><pre id=\"payload\" data-payload=\"")
        .append(
            java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(Canonical.bytes(payload)))
        .append("\">")
        .append(esc(Canonical.string(payload)))
        .append("</pre>");
    if (note != null) {
      b.append("<p class=\"note\">").append(esc(note)).append("</p>");
    }
    b.append("<form id=\"sign-form\" method=\"post\" action=\"")
        .append(esc(action))
        .append("\"><input type=\"hidden\" name=\"signature\" value=\"\">");
    fields.forEach(
        (k, v) ->
            b.append("<input type=\"hidden\" name=\"")
                .append(esc(k))
                .append("\" value=\"")
                .append(esc(v))
                .append("\">"));
    return b.append("<button type=\"submit\" id=\"sign\">Sign in this browser and ")
        .append(fork ? "fork" : "deliver")
        .append("</button>")
        .append("</form><p id=\"sign-status\" class=\"note\"></p>")
        .toString();
  }

  /**
   * The browser's signing key (D30): generated here as non-extractable and kept in IndexedDB, or
   * imported once from the PKCS#8 file the human already has; its public key shown as a PEM to
   * enroll. console.js does the work; the private key never leaves the browser.
   */
  static String keys() {
    return "<section id=\"browser-key\"><p id=\"key-status\">Looking for a key in this"
        + " browser…</p><h2>Public key</h2><pre id=\"public-key\"></pre><p>Key id <code"
        + " id=\"key-id\"></code></p><p>Save the public key as <code>NAME.pub</code> and enroll"
        + " it where the workers' trust roots live: <code>ratchet keys trust --role"
        + " approver|reviewer|operator NAME.pub</code> (NAME is the name decisions carry).</p>"
        + "</section><section><h2>Create a key</h2><p>A new Ed25519 key, kept in this browser and"
        + " never exportable. It replaces the key this browser holds.</p><button type=\"button\""
        + " id=\"generate\">Generate a key in this browser</button></section><section><h2>Or"
        + " import your key once</h2><p>Paste your PKCS#8 private key (the <code>.key</code>"
        + " file 'ratchet keys generate' wrote); it is kept here as non-extractable and never"
        + " sent.</p><textarea id=\"pkcs8\" rows=\"5\" cols=\"70\"></textarea><br><button"
        + " type=\"button\" id=\"import\">Import</button></section>";
  }
}
