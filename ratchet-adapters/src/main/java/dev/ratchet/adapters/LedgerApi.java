package dev.ratchet.adapters;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.net.URI;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The action kinds of the reference ledger service ({@code
 * dev.ratchet.harness.ledger.ReferenceService} in ratchet-harness; {@code ratchet serve-ledger}
 * runs it). Every kind's target (what a task allowlists) is the account it touches.
 *
 * <ul>
 *   <li>{@code create_order} (write) {@code {account, sku, quantity, unit_price_cents}}
 *   <li>{@code pay_order} (write) {@code {account, order_id, amount_cents}}
 *   <li>{@code get_account} (read) and {@code check_account} (verify) {@code {account}}
 *   <li>{@code get_order} (read) {@code {account, order_id}}
 * </ul>
 */
public final class LedgerApi {
  public static final String NAMESPACE = "ledger";
  public static final String CREATE_ORDER = "create_order";
  public static final String PAY_ORDER = "pay_order";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private LedgerApi() {}

  public static List<HttpAction> actions() {
    return List.of(
        HttpAction.post(write(CREATE_ORDER), "/v1/orders"),
        HttpAction.post(write(PAY_ORDER), "/v1/payments"),
        HttpAction.get(
            ActionSpec.of(
                "get_account",
                ActionClass.READ,
                "ledger.read",
                "read_only",
                accountSchema().build(),
                LedgerApi::accountOnly,
                LedgerApi::account),
            "/v1/accounts/{account}"),
        HttpAction.get(
            ActionSpec.of(
                "get_order",
                ActionClass.READ,
                "ledger.read",
                "read_only",
                accountSchema().add(idProperty("order_id", "the order's id")).build(),
                (a, p) -> {
                  Fields f = Fields.exact(a, p, "account", "order_id");
                  id(f, "account");
                  id(f, "order_id");
                },
                LedgerApi::account),
            "/v1/accounts/{account}/orders/{order_id}"),
        HttpAction.get(
            ActionSpec.of(
                "check_account",
                ActionClass.VERIFY,
                "ledger.verify",
                "verification",
                accountSchema().build(),
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
      throw RatchetException.contract(
          "client secret file " + file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * Checks a write body's shape; throws {@code CONTRACT} naming the field. The client checks it
   * before sending, the reference service again on receipt.
   */
  public static void validate(String kind, JsonValue body, String path) {
    if (CREATE_ORDER.equals(kind)) {
      Fields f = Fields.exact(body, path, "account", "sku", "quantity", "unit_price_cents");
      id(f, "account");
      f.text("sku", 64);
      f.integer("quantity", 1, 1000);
      f.integer("unit_price_cents", 0, 1_000_000_000);
    } else if (PAY_ORDER.equals(kind)) {
      Fields f = Fields.exact(body, path, "account", "order_id", "amount_cents");
      id(f, "account");
      id(f, "order_id");
      f.integer("amount_cents", 0, 1_000_000_000_000L);
    } else {
      throw RatchetException.contract(path + ": unknown write kind '" + kind + "'");
    }
  }

  /** An identifier safe in a URL path segment. */
  private static String id(Fields f, String key) {
    String v = f.text(key, 64);
    if (!ID.matcher(v).matches()) {
      throw RatchetException.contract(f.path(key) + ": must match " + ID.pattern());
    }
    return v;
  }

  private static ActionSpec write(String kind) {
    return ActionSpec.of(
        kind,
        ActionClass.WRITE,
        "ledger.write",
        "irreversible_write",
        writeSchema(kind),
        (a, p) -> validate(kind, a, p),
        LedgerApi::account);
  }

  /** The argument schema of a kind (the same rules as {@link #validate} and {@code id}). */
  private static ArgumentSchema writeSchema(String kind) {
    ArgumentSchema.Builder b = accountSchema();
    if (CREATE_ORDER.equals(kind)) {
      b.text("sku", 64, "the stock-keeping unit ordered")
          .integer("quantity", 1, 1000, "how many units")
          .integer("unit_price_cents", 0, 1_000_000_000, "the price of one unit in cents");
    } else {
      b.add(idProperty("order_id", "the order to pay"))
          .integer("amount_cents", 0, 1_000_000_000_000L, "the amount paid in cents");
    }
    return b.build();
  }

  /** A schema builder whose first property is the account. */
  private static ArgumentSchema.Builder accountSchema() {
    return ArgumentSchema.builder().add(idProperty("account", "the ledger account"));
  }

  private static ArgumentSchema.Property idProperty(String name, String description) {
    return new ArgumentSchema.Property(
        name,
        ArgumentSchema.Type.STRING,
        false,
        description,
        1,
        64,
        "^" + ID.pattern() + "$",
        null,
        null,
        null);
  }

  private static void accountOnly(JsonObject a, String p) {
    id(Fields.exact(a, p, "account"), "account");
  }

  private static String account(JsonObject a) {
    return ((JsonString) a.get("account").orElseThrow()).value();
  }
}
