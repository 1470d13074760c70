package dev.ratchet.ops.internal;

import dev.ratchet.ops.TaskFile;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Task files a worker already parsed and checked, by key, so a claim does not parse the same task
 * twice (issue 38): the opener parses a submitted task file once per content digest, and the plan
 * driver takes the copy the opener just verified instead of reading it back from the home. Only
 * values the caller verified go in; a key names its content (a SHA-256 of the canonical task file,
 * or the home's content-addressed copy), so a hit is the same task. Bounded, least recently used
 * first out; thread-safe.
 */
public final class VerifiedTasks {
  private static final int CAPACITY = 256;

  /** The copies the opener verified, by the path of the home's copy (the plan driver's ref). */
  public static final VerifiedTasks HANDED = new VerifiedTasks();

  private final Map<String, TaskFile> byKey =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TaskFile> eldest) {
          return size() > CAPACITY;
        }
      };

  /** The cached value of {@code key}, else {@code parse}'s (cached when it returns). */
  public TaskFile get(String key, Supplier<TaskFile> parse) {
    TaskFile hit = find(key);
    if (hit != null) {
      return hit;
    }
    TaskFile parsed = parse.get(); // outside the lock: a refusal caches nothing
    put(key, parsed);
    return parsed;
  }

  public synchronized TaskFile find(String key) {
    return byKey.get(key);
  }

  public synchronized void put(String key, TaskFile value) {
    byKey.put(key, value);
  }

  /** Forgets everything (the trust roots changed: nothing verified before is reused). */
  public synchronized void clear() {
    byKey.clear();
  }
}
