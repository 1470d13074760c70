package dev.ratchet.chaos;

/** Smoke mode runs inside {@code mvn verify}; full mode is the published campaign. */
public enum Mode {
  SMOKE,
  FULL;

  String flag() {
    return "--" + name().toLowerCase(java.util.Locale.ROOT);
  }
}
