package dev.ratchet.json;

/**
 * Bounds the strict parser enforces before any record sees the data: total size in bytes, nesting
 * depth, and the length of any single string in UTF-16 units.
 */
public record JsonLimits(int maxBytes, int maxDepth, int maxStringLength) {
  /** The hard ceiling on depth: recursion deeper than this is never allowed. */
  public static final int MAX_DEPTH = 256;

  /** 8 MiB, depth 64, 1 MiB strings: ample for checkpoints, decisions and task files. */
  public static final JsonLimits DEFAULT = new JsonLimits(8 << 20, 64, 1 << 20);

  public JsonLimits {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1");
    }
    if (maxDepth < 1 || maxDepth > MAX_DEPTH) {
      throw new IllegalArgumentException("maxDepth must be in 1.." + MAX_DEPTH);
    }
    if (maxStringLength < 0) {
      throw new IllegalArgumentException("maxStringLength must be >= 0");
    }
  }
}
