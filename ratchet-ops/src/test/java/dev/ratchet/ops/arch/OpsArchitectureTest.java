package dev.ratchet.ops.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The application layer (ADR 0110): no picocli and no command, no SQL of its own, adapters only
 * through their providers, core internals never.
 */
class OpsArchitectureTest {
  private static final JavaClasses OPS =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.ops");

  @Test
  void theApplicationLayerKnowsNoCommandAndNoPicocli() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.ratchet.cli..", "picocli..")
        .check(OPS);
  }

  @Test
  void itRunsNoSqlAndReachesNoCoreInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..", "dev.ratchet.internal..")
        .check(OPS);
  }

  /** Adapters are plug-ins found through {@code dev.ratchet.adapter.AdapterProvider}. */
  @Test
  void adaptersAreReachedOnlyThroughTheirProviders() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.ratchet.adapters..", "dev.ratchet.harness..")
        .check(OPS);
  }

  @Test
  void clockAndRandomnessComeFromTheServices() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(OPS);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
