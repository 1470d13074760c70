package dev.ratchet.chaos;

import java.nio.file.Path;

/** Crash campaign: under construction. */
final class CrashCampaign {
  private CrashCampaign() {}

  static TrialResult trial(long seed, Mode mode, boolean canary, Path work) {
    throw new UnsupportedOperationException("crash campaign not implemented yet");
  }
}
