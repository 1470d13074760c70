package dev.ratchet.store;

import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * One element of a growing set as stored: its 1-based position in the set, its lookup key (unique
 * within the set), its canonical JSON body and the chain hash after it ({@link RecordChain}).
 */
public record StoredRecord(RecordSet set, long sequence, String key, String body, String chain) {
  public StoredRecord {
    Objects.requireNonNull(set, "set");
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence must be >= 1");
    }
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(body, "body");
    Text.requireHex64("chain", chain);
  }
}
