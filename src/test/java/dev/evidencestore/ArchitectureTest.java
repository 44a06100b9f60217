package dev.evidencestore;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The package table of docs/architecture.md: what each package of the service may import of ours. Dependencies
 * point down only; the configuration mapping at the root is open to all.
 */
class ArchitectureTest {

    private static final String ROOT = "dev.evidencestore";
    private static final List<String> LOW = List.of("verify", "domain", "persistence", "storage", "cluster",
            "security", "audit", "integrity", "render", "preview");
    /** Where the sources of each package live: the verification library is compiled in from tools/verify. */
    private static final List<Path> SOURCE_ROOTS = List.of(Path.of("src/main/java/dev/evidencestore"),
            Path.of("tools/verify/src/main/java/dev/evidencestore"));
    /** Each package, and the packages of ours it may import besides itself and the root. */
    static final Map<String, Set<String>> MAY_IMPORT = table();

    private static JavaClasses service;

    private static Map<String, Set<String>> table() {
        Map<String, Set<String>> table = new LinkedHashMap<>();
        // the JDK-only Merkle, note and DSSE library, shared with the offline verifier: nothing of ours, no library
        table.put("verify", Set.of());
        table.put("domain", Set.of());
        table.put("persistence", Set.of("verify", "domain"));
        // the one JDBC helper lives in persistence: the advisory locks use it too
        table.put("cluster", Set.of("domain", "persistence"));
        table.put("storage", Set.of("domain"));
        table.put("security", Set.of("domain"));
        // checkpoints are published to, and read back from, an anchor of the storage package
        table.put("audit", Set.of("verify", "domain", "persistence", "storage", "cluster", "security"));
        table.put("integrity", Set.of("domain", "persistence", "storage", "cluster"));
        table.put("render", Set.of("verify", "domain"));
        // recognisers of evidence and the charts they draw: pure functions of bytes and declarations
        table.put("preview", Set.of());
        table.put("service", Set.copyOf(LOW));
        table.put("http", with(LOW, "service"));
        table.put("api", with(LOW, "service", "http"));
        table.put("web", with(LOW, "service", "http"));
        table.put("demo", with(LOW, "service", "http"));
        return table;
    }

    private static Set<String> with(List<String> packages, String... more) {
        List<String> all = new ArrayList<>(packages);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }

    @BeforeAll
    static void importService() {
        service = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @TestFactory
    Stream<DynamicTest> eachPackageImportsOnlyWhatTheTableAllows() {
        return MAY_IMPORT.entrySet().stream().map(row -> DynamicTest.dynamicTest(row.getKey(),
                () -> mayImport(row.getKey(), row.getValue()).check(service)));
    }

    /**
     * The same table read off the sources' import lines: the compiler inlines constants, so a class that only uses
     * another package's constant (a header name, a priority) leaves no trace in the bytecode ArchUnit reads.
     */
    @Test
    void everyImportOfOursFollowsTheTable() throws IOException {
        Pattern ours = Pattern.compile("^import (?:static )?dev\\.evidencestore\\.([a-z]+)\\.", Pattern.MULTILINE);
        List<String> upward = new ArrayList<>();
        for (Path source : mainSources()) {
            Path root = SOURCE_ROOTS.stream().filter(source::startsWith).findFirst().orElseThrow();
            String layer = root.relativize(source).getName(0).toString();
            Set<String> allowed = MAY_IMPORT.getOrDefault(layer, Set.of());
            var imports = ours.matcher(Files.readString(source));
            while (imports.find()) {
                String imported = imports.group(1);
                if (!imported.equals(layer) && !allowed.contains(imported)) {
                    upward.add(source + " imports " + imported);
                }
            }
        }
        assertEquals(List.of(), upward, "imports the package table does not allow");
    }

    @Test
    void everyPackageOfTheServiceIsInTheTable() {
        List<String> unknown = service.stream().map(JavaClass::getPackageName)
                .filter(name -> !name.equals(ROOT))
                .map(name -> name.substring(ROOT.length() + 1).split("\\.")[0])
                .distinct().filter(name -> !MAY_IMPORT.containsKey(name)).toList();
        assertEquals(List.of(), unknown, "packages missing from the table");
    }

    /**
     * The verification library is compiled alone with javac by tools/verify/verify, so it may use the JDK and
     * nothing else, not even a library the service has.
     */
    @Test
    void theVerificationLibraryNeedsOnlyTheJdk() {
        classes().that().resideInAPackage(ROOT + ".verify..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", ROOT + ".verify..")
                .check(service);
    }

    @Test
    void theDomainKnowsNoPersistenceHttpOrContainer() {
        noClasses().that().resideInAPackage(ROOT + ".domain..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta..", "javax.persistence..", "io.quarkus..",
                        "io.vertx..", "org.hibernate..", "io.smallrye..", "org.jboss..")
                .check(service);
    }

    @Test
    void entitiesNeverLeaveTheServiceLayer() {
        noClasses().that().resideInAnyPackage(ROOT + ".api..", ROOT + ".web..", ROOT + ".demo..",
                        ROOT + ".render..", ROOT + ".http..")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Entity")
                .check(service);
    }

    /**
     * Router orders and filter priorities are set in RequestPipeline alone: every {@code .order(} and
     * {@code priority =} of the service's sources names one of its constants.
     */
    @Test
    void everyOrderComesFromTheRequestPipeline() throws IOException {
        Pattern ordered = Pattern.compile("\\.order\\(|priority\\s*=");
        List<String> literal = new ArrayList<>();
        for (Path source : mainSources()) {
            List<String> lines = Files.readAllLines(source);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (ordered.matcher(line).find() && !line.contains("RequestPipeline.")
                        && !source.endsWith("RequestPipeline.java")) {
                    literal.add(source + ":" + (i + 1) + ": " + line.strip());
                }
            }
        }
        assertEquals(List.of(), literal, "orders that do not come from RequestPipeline");
    }

    private static List<Path> mainSources() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            try (Stream<Path> sources = Files.walk(root)) {
                sources.filter(path -> path.toString().endsWith(".java"))
                        .filter(path -> !path.getParent().endsWith("evidencestore")).sorted().forEach(all::add);
            }
        }
        return all;
    }

    private static ArchRule mayImport(String layer, Set<String> allowed) {
        List<String> packages = new ArrayList<>();
        packages.add(ROOT);
        packages.add(ROOT + "." + layer + "..");
        allowed.forEach(name -> packages.add(ROOT + "." + name + ".."));
        return classes().that().resideInAPackage(ROOT + "." + layer + "..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(ROOT + "..")
                        .or(resideInAnyPackage(packages.toArray(String[]::new))))
                .as(layer + " imports only " + (allowed.isEmpty() ? "nothing of ours" : String.join(", ",
                        allowed.stream().sorted().toList())));
    }
}
