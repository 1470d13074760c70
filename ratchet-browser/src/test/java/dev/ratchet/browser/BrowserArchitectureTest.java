package dev.ratchet.browser;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The layering and seam rules of ratchet-browser (ARCHITECTURE.md, third wave). */
class BrowserArchitectureTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.browser");

  @Test
  void thePublicApiNeverExposesInternalTypes() {
    methods()
        .that()
        .arePublic()
        .and()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.ratchet.browser")
        .should()
        .notHaveRawReturnType(
            com.tngtech.archunit.base.DescribedPredicate.describe(
                "an internal type",
                (com.tngtech.archunit.core.domain.JavaClass c) ->
                    c.getPackageName().startsWith("dev.ratchet.browser.internal")))
        .check(MAIN);
  }

  @Test
  void theBrowserModuleDependsOnCoreAdaptersAndSeleniumOnly() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.ratchet.jdbc..",
            "dev.ratchet.harness..",
            "dev.ratchet.worker..",
            "dev.ratchet.cli..",
            "dev.ratchet.adapters.internal..",
            "java.sql..")
        .check(MAIN);
  }

  @Test
  void clockAndRandomnessComeOnlyFromTheSeams() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(MAIN);
  }

  @Test
  void coreInternalsAreReachedOnlyThroughTheFrontDoor() {
    ArchRules.coreInternalsStayInCore().check(MAIN);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
