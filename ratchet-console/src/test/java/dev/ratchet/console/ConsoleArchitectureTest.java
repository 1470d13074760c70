package dev.ratchet.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.ops.Session;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * D26 in the console's code: it never drives a run (no front door, no lease store, no lease token),
 * runs no SQL, and reaches no core internals; it only reads, signs and delivers.
 */
class ConsoleArchitectureTest {
  private static final JavaClasses CONSOLE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.console");

  @Test
  void theConsoleHoldsNoLeaseAndDrivesNoRun() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.ratchet.Ratchet")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.ratchet.Run")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.ratchet.store.LeaseStore")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.ratchet.store.LeaseToken")
        .orShould()
        .callMethod(Session.class, "leases")
        .check(CONSOLE);
  }

  @Test
  void theConsoleRunsNoSqlAndReachesNoCoreInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..", "dev.ratchet.internal..")
        .check(CONSOLE);
  }

  @Test
  void clockAndRandomnessComeFromTheServices() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(CONSOLE);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
