package dev.ratchet.agentdemo;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The paying agent's script: create the invoice's order ("order"); pay it with the order id the
 * ledger returned ("pay", a write that needs a signed approval); check the account ("check"); then
 * answer ("finish").
 */
final class PaymentChatModel extends DemoChatModel {
  private static final Pattern ORDER_ID = Pattern.compile("\"order_id\":\"([A-Za-z0-9._-]+)\"");

  PaymentChatModel(Path calls) {
    super("scripted-payment", calls);
  }

  @Override
  Decision decide(List<ChatMessage> messages) {
    String account = AgentDemoSetup.ACCOUNT;
    if (result(messages, "check_account").isPresent()) {
      return new Decision("finish", AiMessage.from("done: invoice 1004 paid, account checked"));
    }
    if (result(messages, LedgerApi.PAY_ORDER).isPresent()) {
      String args = JsonObject.builder().put("account", account).build().toString();
      return new Decision(
          "check", AiMessage.from(List.of(call("call-check", "check_account", args))));
    }
    Optional<String> ordered = result(messages, LedgerApi.CREATE_ORDER);
    if (ordered.isEmpty()) {
      String args =
          JsonObject.builder()
              .put("account", account)
              .put("sku", "invoice-1004")
              .put("quantity", 1)
              .put("unit_price_cents", AgentDemoSetup.INVOICE_CENTS)
              .build()
              .toString();
      return new Decision(
          "order", AiMessage.from(List.of(call("call-order", LedgerApi.CREATE_ORDER, args))));
    }
    Matcher m = ORDER_ID.matcher(ordered.get());
    String orderId = m.find() ? m.group(1) : "unknown";
    String args =
        JsonObject.builder()
            .put("account", account)
            .put("order_id", orderId)
            .put("amount_cents", AgentDemoSetup.INVOICE_CENTS)
            .build()
            .toString();
    return new Decision(
        "pay", AiMessage.from(List.of(call("call-pay", LedgerApi.PAY_ORDER, args))));
  }
}
