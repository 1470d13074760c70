package dev.ratchet.adapters;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapters.internal.LedgerRules;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.Text;
import java.net.URI;
import java.util.List;

/**
 * The action kinds of the {@link ReferenceService} ledger. Every kind's target (what a task
 * allowlists) is the account it touches.
 *
 * <ul>
 *   <li>{@code create_order} (write) {@code {account, sku, quantity, unit_price_cents}}
 *   <li>{@code pay_order} (write) {@code {account, order_id, amount_cents}}
 *   <li>{@code get_account} (read) and {@code check_account} (verify) {@code {account}}
 *   <li>{@code get_order} (read) {@code {account, order_id}}
 * </ul>
 */
public final class LedgerApi {
  public static final String NAMESPACE = ReferenceService.NAMESPACE;

  private LedgerApi() {}

  public static List<HttpAction> actions() {
    return List.of(
        HttpAction.post(write(LedgerRules.CREATE_ORDER), "/v1/orders"),
        HttpAction.post(write(LedgerRules.PAY_ORDER), "/v1/payments"),
        HttpAction.get(
            ActionSpec.of(
                "get_account",
                ActionClass.READ,
                "ledger.read",
                "read_only",
                LedgerApi::accountOnly,
                LedgerApi::account),
            "/v1/accounts/{account}"),
        HttpAction.get(
            ActionSpec.of(
                "get_order",
                ActionClass.READ,
                "ledger.read",
                "read_only",
                (a, p) -> {
                  Fields f = Fields.exact(a, p, "account", "order_id");
                  LedgerRules.id(f, "account");
                  LedgerRules.id(f, "order_id");
                },
                LedgerApi::account),
            "/v1/accounts/{account}/orders/{order_id}"),
        HttpAction.get(
            ActionSpec.of(
                "check_account",
                ActionClass.VERIFY,
                "ledger.verify",
                "verification",
                LedgerApi::accountOnly,
                LedgerApi::account),
            "/v1/accounts/{account}"));
  }

  /**
   * An adapter for a ledger service at {@code base} with default limits, authenticating with the
   * service's client secret.
   */
  public static IdempotentHttpAdapter adapter(URI base, String clientSecret) {
    return IdempotentHttpAdapter.builder(base, NAMESPACE)
        .actions(actions())
        .clientSecret(clientSecret)
        .build();
  }

  /** The client secret in {@code file} (one line, as {@code serve-ledger} writes it). */
  public static String clientSecret(java.nio.file.Path file) {
    try {
      return Text.require(
          "client secret file " + file, java.nio.file.Files.readString(file).strip(), 512);
    } catch (java.io.IOException e) {
      throw dev.ratchet.error.RatchetException.contract(
          "client secret file " + file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static ActionSpec write(String kind) {
    return ActionSpec.of(
        kind,
        ActionClass.WRITE,
        "ledger.write",
        "irreversible_write",
        (a, p) -> LedgerRules.validate(kind, a, p),
        LedgerApi::account);
  }

  private static void accountOnly(JsonObject a, String p) {
    LedgerRules.id(Fields.exact(a, p, "account"), "account");
  }

  private static String account(JsonObject a) {
    return ((JsonString) a.get("account").orElseThrow()).value();
  }
}
