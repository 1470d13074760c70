package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.seam.Entropy;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds, signs and delivers operator decisions (SPEC §6, §8, D12): an approval bound to exactly
 * one pending write and the environment it was planned against, or a reviewer decision bound to
 * exactly one open case and the live environment. Each carries a fresh single-use nonce. Operators
 * only deliver to the run's inbox; the worker holding the lease consumes, in a commit.
 */
public final class Decisions {
  private static final Pattern DURATION = Pattern.compile("([1-9][0-9]{0,6})([smhd])");

  private Decisions() {}

  public static String nonce(String prefix, Entropy entropy) {
    return prefix + "-" + entropy.hex128();
  }

  public static void deliver(
      CheckpointStore store, RunState s, InboxItem.Kind kind, String nonce, SignedEnvelope env) {
    store.deliver(
        s.taskId(), s.runId(), new InboxItem(nonce, kind, Canonical.string(env.toJson())));
  }

  /** {@code 90s}, {@code 30m}, {@code 24h} or {@code 7d}. */
  public static Duration duration(String option, String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw RatchetException.contract(
          option + ": '" + text + "' is not a duration like 90s, 30m, 24h or 7d");
    }
    long n = Long.parseLong(m.group(1));
    switch (m.group(2)) {
      case "s":
        return Duration.ofSeconds(n);
      case "m":
        return Duration.ofMinutes(n);
      case "h":
        return Duration.ofHours(n);
      default:
        return Duration.ofDays(n);
    }
  }
}
