package dev.ratchet.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The benchmarks measure the public API only, and read time in one place (ARCHITECTURE.md). */
class BenchArchitectureTest {
  private static final JavaClasses BENCH =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // JMH's generated harness code reads its own timers; it is not ours to constrain.
          .withImportOption(location -> !location.contains("/jmh_generated/"))
          .importPackages("dev.ratchet.bench");

  @Test
  void nothingTouchesAnotherModulesInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet..internal..")
        .check(BENCH);
  }

  @Test
  void timeIsReadOnlyByTheStopwatchAndTheRuntimeGetsTheSeams() {
    noClasses()
        .that()
        .doNotHaveSimpleName("Stopwatch")
        .should()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.InstantSource.class, "system")
        .orShould()
        .callConstructor(java.util.Random.class)
        .check(BENCH);
  }
}
