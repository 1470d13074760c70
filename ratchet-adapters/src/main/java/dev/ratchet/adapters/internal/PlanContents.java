package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Follows a plan's writes through the files the task declares (whole-task validation, D31): a
 * write, append or delete of a file whose content the task fixes — by {@code environment.files} or
 * by an earlier step — must name that content's digest as {@code expected_sha256} (or omit it when
 * the file cannot exist yet). A plan that contradicts its own task would otherwise be refused at
 * execute on every resume. Paths the task says nothing about are not judged here: the workspace may
 * hold them already.
 */
final class PlanContents {
  private PlanContents() {}

  static void check(Map<String, JsonValue> declaredFiles, List<TaskOutline.Step> plan) {
    // path -> content; a present key with a null value means "known absent" (deleted).
    Map<String, String> known = new HashMap<>();
    declaredFiles.forEach(
        (path, v) -> {
          if (v instanceof JsonString s) {
            known.put(path, s.value());
          }
        });
    for (int i = 0; i < plan.size(); i++) {
      TaskOutline.Step step = plan.get(i);
      String kind = step.kind();
      boolean write = WorkspaceActions.WRITE_FILE.equals(kind);
      boolean append = WorkspaceActions.APPEND_FILE.equals(kind);
      boolean delete = WorkspaceActions.DELETE_FILE.equals(kind);
      if (!(write || append || delete)) {
        continue;
      }
      JsonObject a = step.arguments();
      String path = text(a, "path").orElse(null);
      if (path == null || !known.containsKey(path)) {
        // A file the task says nothing about: from a write or delete on, the plan fixes it.
        if (write) {
          known.put(path, text(a, "content").orElse(""));
        } else if (delete) {
          known.put(path, null);
        }
        continue;
      }
      String current = known.get(path);
      String want = current == null ? null : Canonical.sha256Hex(current);
      String said = text(a, "expected_sha256").orElse(null);
      if (!java.util.Objects.equals(want, said)) {
        String field = "plan[" + i + "].arguments.expected_sha256";
        throw RatchetException.contract(
            field
                + ": the task fixes '"
                + path
                + "' "
                + (want == null
                    ? "as absent at this step, so the write must not expect a digest"
                    : "to content with digest " + want)
                + ", not "
                + (said == null ? "absent" : said)
                + " (the plan contradicts task.environment.files or an earlier step)");
      }
      String content = text(a, "content").orElse("");
      known.put(
          path, delete ? null : append ? (current == null ? "" : current) + content : content);
    }
  }

  private static Optional<String> text(JsonObject o, String field) {
    return o.get(field).filter(v -> v instanceof JsonString).map(v -> ((JsonString) v).value());
  }
}
