package dev.ratchet.mcp.arch;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.ratchet.testkit.ArchRules;
import org.junit.jupiter.api.Test;

/** SPEC D32: the driver learns outcomes from values and {@code Run.outcomeOf}, not the trace. */
class McpOutcomesTest {
  @Test
  void theDriverReadsNoTraceToDecideAnOutcome() {
    ArchRules.decideNoOutcomeFromTheTrace("dev.ratchet.mcp.internal.ToolCalls")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.ratchet.mcp"));
  }
}
