package dev.ratchet.harness.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * ADR 0011: the harnesses drive runs through public seams only. No harness class reaches into a
 * module's {@code internal} packages (core's, the JDBC store's, the adapters', the CLI's), and none
 * knows the command line, which depends on the harness and not the other way round.
 */
class HarnessArchitectureTest {
  private static final JavaClasses HARNESS =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.harness");

  @Test
  void harnessesUseNoModulesInternals() {
    noClasses()
        .that()
        .resideInAPackage("dev.ratchet.harness..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.ratchet.internal..",
            "dev.ratchet.jdbc.internal..",
            "dev.ratchet.adapters.internal..",
            "dev.ratchet.cli..")
        .check(HARNESS);
  }
}
