package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRun;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a run (SPEC D7 {@code load}): the mark and the set heads in one snapshot of the mark side,
 * then the content the mark points at, which must hash to the mark's digest. Content that is
 * missing or does not match is a {@code CHECKPOINT} failure, never "no checkpoint": it means the
 * content was edited, replaced, or restored from an older copy.
 */
public final class Loader {
  private static final int ATTEMPTS = 3;

  private Loader() {}

  private record Snapshot(Marks.Row mark, Map<RecordSet, SetHead> heads, Optional<String> body) {}

  public static Optional<StoredRun> load(Side marks, Side content, String taskId, String runId) {
    boolean split = marks != content;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Snapshot> snap =
          marks.read(
              "loading the run",
              c -> {
                Optional<Marks.Row> mark = Marks.get(c, taskId, runId);
                if (mark.isEmpty()) {
                  return Optional.empty();
                }
                requireLogged(c, taskId, runId, mark.get());
                Optional<String> body =
                    split ? Optional.empty() : Contents.get(c, taskId, runId, mark.get().digest());
                return Optional.of(new Snapshot(mark.get(), Records.heads(c, taskId, runId), body));
              });
      if (snap.isEmpty()) {
        return Optional.empty();
      }
      Marks.Row mark = snap.get().mark();
      Optional<String> body =
          split
              ? content.read(
                  "loading checkpoint content", c -> Contents.get(c, taskId, runId, mark.digest()))
              : snap.get().body();
      if (body.isPresent()) {
        return Optional.of(verified(taskId, runId, snap.get(), body.get()));
      }
      // Split store: retention may have pruned this content after the mark moved on; retry.
      boolean moved =
          split
              && marks
                  .read("re-reading the mark", c -> Marks.get(c, taskId, runId))
                  .map(m -> m.generation() != mark.generation())
                  .orElse(true);
      if (!moved) {
        throw RatchetException.checkpoint(
            "checkpoint content of generation "
                + mark.generation()
                + " (digest "
                + mark.digest()
                + ") is missing from "
                + content.describe()
                + ": it was deleted or the content store was restored from an older copy");
      }
    }
    throw RatchetException.checkpoint(
        "run '" + runId + "' kept moving while it was loaded; try again");
  }

  /**
   * Defence in depth: the mark's digest must be the one logged when its generation committed, so a
   * mark re-pointed at older retained content is refused here already. (Editing both rows is caught
   * at recovery: the signed generation inside the checkpoint is not the mark's.)
   */
  private static void requireLogged(Connection c, String taskId, String runId, Marks.Row mark)
      throws SQLException {
    Optional<String> logged = Marks.logged(c, taskId, runId, mark.generation());
    if (logged.isEmpty() || !logged.get().equals(mark.digest())) {
      throw RatchetException.checkpoint(
          "the mark of run '"
              + runId
              + "' names content that was not committed as generation "
              + mark.generation());
    }
  }

  private static StoredRun verified(String taskId, String runId, Snapshot s, String body) {
    String actual = Canonical.sha256Hex(body);
    if (!actual.equals(s.mark().digest())) {
      throw RatchetException.checkpoint(
          "checkpoint content of generation "
              + s.mark().generation()
              + " does not match the mark's digest: it was edited or replaced by other content");
    }
    try {
      return new StoredRun(
          new RunScope(taskId, runId, s.mark().instanceId()),
          s.mark().generation(),
          s.mark().digest(),
          new CheckpointEnvelope(body),
          s.heads());
    } catch (RuntimeException e) {
      throw Failures.corrupt("the stored mark of run '" + runId + "' is malformed", e);
    }
  }
}
