package dev.ratchet.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The layering and seam rules of ratchet-core (ARCHITECTURE.md). */
class CoreArchitectureTest {
  private static final JavaClasses CORE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.ratchet");

  /**
   * ADR 0110 (core writes it itself, as the testkit depends on core): core depends on no other
   * module, so neither on the command line nor on any other module's internal package.
   */
  @Test
  void coreKnowsNoCommandLineAndNoOtherModulesInternals() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.ratchet.cli..", "dev.ratchet.ops..", "dev.ratchet.*.internal..")
        .check(CORE);
  }

  @Test
  void coreImportsNeitherJdbcNorHttp() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "javax.sql..", "java.net.http..")
        .check(CORE);
  }

  @Test
  void clockAndRandomnessAreTouchedOnlyInTheSeams() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("dev.ratchet.seam.Seams")
        .and()
        .doNotHaveFullyQualifiedName("dev.ratchet.sign.Ed25519$SeedRandom")
        .should()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.InstantSource.class, "system")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.time.LocalDateTime.class, "now")
        .orShould()
        .callMethod(java.util.UUID.class, "randomUUID")
        .orShould()
        .callConstructor(java.util.Random.class)
        .orShould()
        .callConstructor(java.security.SecureRandom.class)
        .orShould()
        .callMethod(java.util.concurrent.ThreadLocalRandom.class, "current")
        .check(CORE);
  }

  @Test
  void publicApiDoesNotExposeInternalTypesExceptThroughTheFrontDoor() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.ratchet.internal..", "dev.ratchet")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet.internal..")
        .check(CORE);
  }

  /** Each package of core, the root (front door) included, is one slice. */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String p = c.getPackageName();
          if (p.equals("dev.ratchet")) {
            return SliceIdentifier.of("root");
          }
          if (!p.startsWith("dev.ratchet.")) {
            return SliceIdentifier.ignore();
          }
          String rest = p.substring("dev.ratchet.".length());
          int dot = rest.indexOf('.');
          return SliceIdentifier.of(dot < 0 ? rest : rest.substring(0, dot));
        }

        @Override
        public String getDescription() {
          return "core packages";
        }
      };

  @Test
  void corePackagesFormNoCycle() {
    slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(CORE);
  }

  @Test
  void nothingDependsOnTheFrontDoor() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.ratchet")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.ratchet")
        .check(CORE);
  }

  @Test
  void internalTypesArePublicOnlyWhenTheFrontDoorUsesThem() {
    classes()
        .that()
        .resideInAPackage("dev.ratchet.internal..")
        .and()
        .arePublic()
        .and()
        .areTopLevelClasses()
        .should()
        .onlyHaveDependentClassesThat()
        .resideInAnyPackage("dev.ratchet", "dev.ratchet.internal..")
        .check(CORE);
  }

  @Test
  void exportedPackagesHaveNoPublicMutableFields() {
    fields()
        .that()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackage("dev.ratchet.internal..")
        .and()
        .arePublic()
        .should()
        .beFinal()
        .andShould()
        .haveModifier(JavaModifier.STATIC)
        .check(CORE);
  }

  @Test
  void mainCodeNeverUsesTheAssertKeyword() throws Exception {
    Pattern assertStatement = Pattern.compile("^\\s*assert\\s", Pattern.MULTILINE);
    List<Path> offenders;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> assertStatement.matcher(read(p)).find())
              .toList();
    }
    Assertions.assertThat(offenders).isEmpty();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
