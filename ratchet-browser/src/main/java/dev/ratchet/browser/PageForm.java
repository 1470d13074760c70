package dev.ratchet.browser;

import dev.ratchet.json.Text;

/**
 * A form the task allows the browser to submit, by its stable element id, with the id of its submit
 * control. A receipted form carries the hidden key fields the adapter fills ({@code
 * idempotency_key}, {@code intent_digest}, {@code fence_run}, {@code fence_version}, {@code
 * approval_fingerprint}, {@code approval_expires_at}) and its service answers {@code GET
 * /v1/receipts/{key}}; an unreceipted form has neither, and its writes run at most once (D23).
 */
public record PageForm(String id, String submitControl, boolean receipted) {
  public PageForm {
    Text.require("form id", id, 100);
    Text.require("form submit control", submitControl, 100);
  }
}
