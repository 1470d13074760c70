package dev.ratchet.worker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.seam.Seams;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of ratchet-worker (SPEC D33, issue 37): it knows the store only through core's
 * scheduling SPI, and reads no clock but the one it is given.
 */
class WorkerArchitectureTest {
  private static final JavaClasses WORKER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.worker");

  @Test
  void theWorkerImportsNoStoreImplementation() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.ratchet.jdbc..", "java.sql..", "javax.sql..")
        .because("the worker depends on the scheduling SPI only (D33)")
        .check(WORKER);
  }

  @Test
  void theWorkerReadsNoClockButTheInjectedOne() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(WORKER);
    noClasses()
        .should()
        .callMethod(Seams.class, "systemMonotonic")
        .orShould()
        .callMethod(Seams.class, "systemClock")
        .because("the host injects the worker's MonotonicClock; the worker picks none itself")
        .check(WORKER);
  }

  @Test
  void coreInternalsAreReachedOnlyThroughTheFrontDoor() {
    ArchRules.coreInternalsStayInCore().check(WORKER);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
