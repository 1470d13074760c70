package dev.ratchet.cli.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.testkit.ArchRules;
import dev.ratchet.testkit.SourceRules;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** ARCHITECTURE.md for the command line: no SQL, no core internals, seams only, no assert. */
class CliArchitectureTest {
  private static final JavaClasses CLI =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet.cli");

  @Test
  void theCommandLineRunsNoSql() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..")
        .check(CLI);
  }

  @Test
  void theCommandLineNeverReachesIntoCoreInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet.internal..")
        .check(CLI);
  }

  /**
   * Adapters are plug-ins: the command line finds them through {@code ServiceLoader} providers
   * ({@code dev.ratchet.adapter.AdapterProvider}) and never names an adapter implementation. The
   * reference ledger service {@code serve-ledger} runs is a harness (ratchet-harness, ADR 0011).
   */
  @Test
  void adaptersAreReachedOnlyThroughTheirProviders() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet.adapters..")
        .check(CLI);
  }

  @Test
  void clockAndRandomnessComeFromTheServices() {
    ArchRules.timeAndRandomnessOnlyFromTheSeams().check(CLI);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() {
    Assertions.assertThat(SourceRules.filesUsingAssert(Path.of("src/main/java"))).isEmpty();
  }
}
