package dev.ratchet.langchain4j;

import dev.ratchet.json.JsonObject;
import java.util.Optional;
import java.util.function.Function;

/**
 * A user tool whose effect can be looked up by idempotency key, like a small adapter (SPEC D23:
 * receipted). The key is minted by the runtime, never taken from the model's arguments.
 */
public interface ReceiptedTool {
  /**
   * Performs the effect once under {@code key} and stores {@code record.apply(result)} under the
   * key in the same transaction as the effect (so a crash leaves both or neither). If the key was
   * used before, performs nothing and returns the stored text. Returns the stored text.
   */
  String perform(String key, JsonObject arguments, Function<JsonObject, String> record);

  /** The text stored under {@code key} by {@link #perform}, or empty if nothing was performed. */
  Optional<String> lookup(String key);
}
