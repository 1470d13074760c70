package dev.ratchet.langchain4j;

import dev.ratchet.json.JsonObject;

/**
 * A user tool whose effect nothing can look up (SPEC D23: unreceipted, at most once). Its intent
 * and a started mark are committed before it runs; a crash before its result commits freezes the
 * run {@code uncertain_effect} for a reviewer, and it is never run again automatically.
 */
@FunctionalInterface
public interface UnreceiptedTool {
  JsonObject perform(JsonObject arguments);
}
