package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The acting path of the tamper campaign (issue 15 part 2, SPEC D20): {@code resume} (recovery,
 * which executes the run's approved pending append: nonce looked up, receipt appended) and the next
 * steps an agent takes — a new read (its action id looked up) and a replay of the run's first write
 * by its key (quarantine and cached receipt looked up). An old action id is not re-proposed: a
 * deleted middle action-id row is the absence D20 leaves to bindings (ADR 0030). The answer is
 * either {@link #REFUSED} ({@code CHECKPOINT} anywhere) or every outcome up to the first refusal
 * with the workspace's files and ledger afterwards, which must then equal the unmutated control's.
 */
final class ActingPath {
  static final List<String> REFUSED = List.of("refused CHECKPOINT");
  private static final String REFUSED_OTHER = "refused with ";

  private ActingPath() {}

  static List<String> attempt(
      Ratchet actor, TaskSpec task, String runId, InMemoryWorkspace ws, String writeKey) {
    List<String> seen = new ArrayList<>();
    try (Run run = actor.resume(task, runId, ws)) {
      seen.add("recovery " + run.recovery().found() + " " + run.recovery().did());
      seen.add("read " + step(() -> run.apply(run.action("next", "read_file", path()))));
      seen.add(
          "replay "
              + step(
                  () ->
                      run.apply(
                          run.action(
                                  "again",
                                  "write_file",
                                  path().with("content", new JsonString(RuntimeFixture.FIXED)))
                              .withIdempotencyKey(writeKey))));
      seen.add("phase " + run.state().phase() + " cursor " + run.state().cursor());
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        return REFUSED;
      }
      seen.add(REFUSED_OTHER + e.code());
    } catch (RuntimeException e) {
      seen.add("exception " + e);
    }
    seen.addAll(external(ws));
    return seen;
  }

  /**
   * Whether {@code got} ended in a refusal with another code than {@code CHECKPOINT} (a lookup that
   * found nothing, for example a deleted receipt makes a replay an {@code IDEMPOTENCY_CONFLICT}; a
   * record whose flipped key takes the place of the next one makes the store refuse the commit)
   * without effect: the files and ledger afterwards are the control's, or, when the refusal came
   * before the effects the control's recovery made, exactly those of {@code before} the attempt.
   */
  static boolean refusedWithoutEffect(
      List<String> got, List<String> control, InMemoryWorkspace before) {
    int n = got.size();
    int m = control.size();
    if (n < 3 || m < 2 || !got.get(n - 3).startsWith(REFUSED_OTHER)) {
      return false;
    }
    List<String> after = got.subList(n - 2, n);
    return after.equals(control.subList(m - 2, m)) || after.equals(external(before));
  }

  /** The workspace's files (by path) and ledger, as the last two entries of an attempt. */
  static List<String> external(InMemoryWorkspace ws) {
    return List.of("files " + new TreeMap<>(ws.files()), "ledger " + ws.ledger());
  }

  private static String step(Supplier<StepOutcome> s) {
    StepOutcome o = s.get();
    return o.kind() + " " + o.result();
  }

  private static JsonObject path() {
    return JsonObject.builder().put("path", "app.py").build();
  }
}
