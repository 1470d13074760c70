package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.ratchet.internal.Engine;
import org.junit.jupiter.api.Test;

/** ADR 0110: nothing here depends on the command line or on another module's internal package. */
class ModuleBoundariesTest {
  @Test
  void noCommandLineAndNoOtherModulesInternals() {
    ArchRules.checkModuleBoundaries("dev.ratchet.testkit");
  }

  /** The rule can fail: a class that uses core's internal package is refused outside core. */
  @Test
  void aClassUsingAnotherModulesInternalsIsRefused() {
    JavaClasses probe = new ClassFileImporter().importClasses(UsesCoreInternals.class);
    assertThatThrownBy(() -> ArchRules.moduleBoundaries("dev.ratchet.testkit").check(probe))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dev.ratchet.internal.Engine");
    var engine = new ClassFileImporter().importClasses(Engine.class).get(Engine.class);
    assertThat(ArchRules.anotherModulesInternals("dev.ratchet.testkit").test(engine)).isTrue();
    assertThat(ArchRules.anotherModulesInternals("dev.ratchet").test(engine))
        .as("core's own internal package is core's to use")
        .isFalse();
  }

  /** A probe that reaches into core's internals (test code only). */
  static final class UsesCoreInternals {
    Class<?> engine() {
      return Engine.class;
    }
  }
}
