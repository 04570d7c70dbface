// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.table.operations.ddl.CreateCatalogOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every script fluid generates is accepted by the runner's allowlist
 * (ScriptPolicy), statement by statement as Flink parses it: the golden
 * scripts of tests/golden/sqlgen (the examples' among them: shapes-*,
 * changes-customers) and the Kafka security variants in
 * src/test/resources/scripts (make.sh writes them with fluid;
 * tests/bats/flink-runner-policy.bats checks they are current). The catalog
 * is an in-memory one in place of the REST catalog (its CREATE CATALOG is
 * judged, not run); everything else runs as the runner runs it, the INSERT
 * parsed (planned) but not submitted.
 */
class FluidScriptsTest {
    /** What the plan binds for these scripts: the catalog's and the Kafka client's variables. */
    static final Set<String> ALLOW = Set.of("ICEBERG_TOKEN", "ICEBERG_CREDENTIAL", "KAFKA_USERNAME",
            "KAFKA_PASSWORD", "KAFKA_TRUSTSTORE_PASSWORD", "KAFKA_KEYSTORE_PASSWORD", "KAFKA_KEY_PASSWORD",
            "KAFKA_JAAS");

    private static final Pattern TABLE = Pattern.compile(
            "CREATE TABLE IF NOT EXISTS `fluid_iceberg`\\.`([^`]+)`\\.`([^`]+)`");

    static List<Path> scripts() throws Exception {
        List<Path> out = new ArrayList<>();
        Path res = Path.of(FluidScriptsTest.class.getResource("/scripts/make.sh").toURI()).getParent();
        try (Stream<Path> s = Files.list(res)) {
            s.filter(p -> p.toString().endsWith(".sql")).sorted().forEach(out::add);
        }
        return out;
    }

    static List<Path> golden() throws Exception {
        String dir = System.getProperty("fluid.golden");
        Path d = dir == null ? null : Path.of(dir);
        Assumptions.assumeTrue(d != null && Files.isDirectory(d),
                "tests/golden/sqlgen is not here (the image's build stage copies only the runner)");
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(d)) {
            s.filter(p -> p.toString().endsWith(".sql")).sorted().forEach(out::add);
        }
        assertTrue(out.size() >= 20, "the golden scripts: " + out);
        return out;
    }

    /** The expected table a script's plan would give it: its CREATE TABLE's namespace and name. */
    static ExpectedTable expected(String script) throws Exception {
        Matcher m = TABLE.matcher(script);
        assertTrue(m.find(), "no CREATE TABLE in the script");
        return ExpectedTable.parse(new ObjectMapper().readTree("{\"namespace\":\"" + m.group(1) + "\",\"name\":\""
                + m.group(2) + "\",\"columns\":[{\"name\":\"x\",\"type\":\"string\",\"required\":false}]}"));
    }

    /** Runs script through both passes of the allowlist; returns the statement kinds it met. */
    static Set<String> accept(Path file) throws Exception {
        String script = Files.readString(file, StandardCharsets.UTF_8);
        List<Statements.Statement> stmts = Statements.splitWithLines(script);
        ScriptPolicy.checkText(stmts, ALLOW);
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        TableEnvironmentInternal internal = (TableEnvironmentInternal) tEnv;
        ScriptPolicy.Context ctx = new ScriptPolicy.Context(expected(script), ALLOW, n -> "value-of-" + n,
                tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase());
        Set<String> kinds = new TreeSet<>();
        int no = 0;
        for (Statements.Statement st : stmts) {
            no++;
            List<Operation> ops = internal.getParser().parse(st.text);
            assertEquals(1, ops.size());
            Operation op = ops.get(0);
            try {
                ScriptPolicy.checkOperation(op, st.text, ctx);
            } catch (ScriptPolicy.Refusal r) {
                fail(file.getFileName() + ": " + ScriptPolicy.where(no, st) + ": " + r.getMessage());
            }
            kinds.add(op.getClass().getSimpleName()
                    + (op instanceof SetOperation ? " " + ((SetOperation) op).getKey().orElse("") : ""));
            if (op instanceof CreateCatalogOperation) {
                String name = ((CreateCatalogOperation) op).getCatalogName();
                tEnv.registerCatalog(name, new GenericInMemoryCatalog(name));
            } else if (op instanceof SetOperation) {
                tEnv.getConfig().set(((SetOperation) op).getKey().get(), ((SetOperation) op).getValue().get());
            } else if (op instanceof CreateTableOperation && !((CreateTableOperation) op).isTemporary()) {
                // The in-memory catalog stores a table with a connector only.
                tEnv.executeSql(st.text.replaceFirst("\\) WITH \\(", ") WITH ('connector' = 'blackhole', "))
                        .await();
            } else if (!(op instanceof SinkModifyOperation)) {
                tEnv.executeSql(st.text).await();
            }
        }
        return kinds;
    }

    @Test
    void everyGoldenScriptIsAccepted() throws Exception {
        Set<String> kinds = new TreeSet<>();
        for (Path p : golden()) {
            kinds.addAll(accept(p));
        }
        // Every kind fluid writes is among them.
        assertEquals(new TreeSet<>(List.of("CreateCatalogOperation", "CreateDatabaseOperation",
                "CreateTableOperation", "CreateViewOperation", "SetOperation pipeline.name",
                "SetOperation table.local-time-zone", "SinkModifyOperation")), kinds);
    }

    @Test
    void everySecurityVariantIsAccepted() throws Exception {
        List<Path> s = scripts();
        assertEquals(3, s.size(), "make.sh's variants: " + s);
        for (Path p : s) {
            assertTrue(accept(p).contains("CreateTableOperation"));
        }
    }

    @Test
    void aGeneratedScriptNeedsItsVariablesInEnvAllow() throws Exception {
        int withVariables = 0;
        for (Path p : scripts()) {
            String script = Files.readString(p, StandardCharsets.UTF_8);
            List<Statements.Statement> stmts = Statements.splitWithLines(script);
            Set<String> named = new TreeSet<>();
            Matcher m = KafkaProviders.REF.matcher(script);
            while (m.find()) {
                named.add(m.group(1));
            }
            if (named.isEmpty()) {
                continue;
            }
            withVariables++;
            for (String left : named) {
                Set<String> fewer = new TreeSet<>(ALLOW);
                fewer.remove(left);
                try {
                    ScriptPolicy.checkText(stmts, fewer);
                    fail(p.getFileName() + ": accepted without " + left + " in --env-allow");
                } catch (ScriptPolicy.Refusal r) {
                    assertTrue(r.getMessage().contains(left) && r.getMessage().contains("--env-allow"),
                            r.getMessage());
                    assertTrue(r.getMessage().startsWith("statement 5, line "), r.getMessage());
                }
            }
        }
        assertEquals(2, withVariables);
    }
}
