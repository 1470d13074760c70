package dev.ratchet.cli;

/** Lease owner names of command-line workers. */
final class Workers {
  private Workers() {}

  /** The given name, else {@code cli-<pid>}: unique per live process. */
  static String id(String given) {
    return given != null ? given : "cli-" + ProcessHandle.current().pid();
  }
}
