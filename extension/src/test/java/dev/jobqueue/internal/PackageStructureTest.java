package dev.jobqueue.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The package rules a newcomer can rely on: the internal packages form layers without cycles, so each can be
 * read from the bottom up, and the public API in {@code dev.jobqueue} never reaches into internal code.
 */
class PackageStructureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.jobqueue");

    @Test
    void internal_packages_have_no_cycles() {
        slices().matching("dev.jobqueue.internal.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void the_public_api_uses_no_internal_code() {
        noClasses().that().resideInAPackage("dev.jobqueue")
                .should().dependOnClassesThat().resideInAPackage("dev.jobqueue.internal..")
                .check(CLASSES);
    }
}
