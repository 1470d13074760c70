package dev.ratchet.chaos;

import dev.ratchet.testkit.ArchRules;
import org.junit.jupiter.api.Test;

/** ADR 0110: nothing here depends on the command line or on another module's internal package. */
class ModuleBoundariesTest {
  @Test
  void noCommandLineAndNoOtherModulesInternals() {
    ArchRules.checkModuleBoundaries("dev.ratchet.chaos");
  }
}
