package dev.ratchet.ops;

import dev.ratchet.json.JsonObject;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.List;

/** Reads a run's growing sets for display, up to the count its verified checkpoint signs. */
public final class Records {
  private static final int PAGE = 500;

  private Records() {}

  public static List<StoredRecord> upTo(
      CheckpointStore store, String taskId, String runId, RecordSet set, long count) {
    List<StoredRecord> out = new ArrayList<>();
    while (out.size() < count) {
      int limit = (int) Math.min(PAGE, count - out.size());
      List<StoredRecord> page = store.records(taskId, runId, set, out.size() + 1L, limit);
      if (page.isEmpty()) {
        break;
      }
      out.addAll(page);
    }
    return out;
  }

  /** The bodies as JSON objects without their record MAC (D20), in sequence order. */
  public static List<JsonObject> bodies(List<StoredRecord> records) {
    List<JsonObject> out = new ArrayList<>();
    for (StoredRecord r : records) {
      out.add(RecordMac.strip(r));
    }
    return out;
  }
}
