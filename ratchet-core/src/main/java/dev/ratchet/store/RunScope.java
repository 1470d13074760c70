package dev.ratchet.store;

import dev.ratchet.json.Text;

/**
 * Which mark a commit or load addresses (SPEC D7): the mark is keyed by {@code (taskId, runId)} and
 * holds {@code environmentInstanceId} as a checked column, so a commit made against another
 * environment instance is refused rather than silently re-binding the run.
 */
public record RunScope(String taskId, String runId, String environmentInstanceId) {
  public RunScope {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("environment_instance_id", environmentInstanceId);
  }
}
