package dev.ratchet.store;

import dev.ratchet.json.Text;

/**
 * The count and hash-chain head of one growing set. The empty set has count 0 and the head {@link
 * #GENESIS}.
 */
public record SetHead(long count, String head) {
  public static final String GENESIS = "0".repeat(64);
  public static final SetHead EMPTY = new SetHead(0, GENESIS);

  public SetHead {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0");
    }
    Text.requireHex64("head", head);
  }
}
