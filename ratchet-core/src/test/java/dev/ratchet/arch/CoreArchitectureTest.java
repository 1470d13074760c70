package dev.ratchet.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
