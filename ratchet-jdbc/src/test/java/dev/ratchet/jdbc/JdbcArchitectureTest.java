package dev.ratchet.jdbc;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The seams and layering of ratchet-jdbc (ARCHITECTURE.md). */
class JdbcArchitectureTest {
  private static final JavaClasses JDBC =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.jdbc");

  @Test
  void timeAndRandomnessComeOnlyFromTheInjectedClock() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(JDBC);
  }

  @Test
  void coreInternalsAreReachedOnlyThroughTheFrontDoor() {
    ArchRules.coreInternalsStayInCore().check(JDBC);
  }

  @Test
  void thePublicApiDoesNotExposeInternalTypes() {
    noMethods()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.ratchet.jdbc")
        .should()
        .haveRawReturnType(resideInAPackage("dev.ratchet.jdbc.internal.."))
        .check(JDBC);
  }

  @Test
  void internalsDoNotCallBackIntoTheStoreFacade() {
    noClasses()
        .that()
        .resideInAPackage("dev.ratchet.jdbc.internal..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(JdbcStore.class.getName())
        .check(JDBC);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
