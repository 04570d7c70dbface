// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.delegation.Parser;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.ddl.CreateDatabaseOperation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink's planner throws some refusals as an Error: the live lane met Calcite's
 * AssertionError "Conversion to relational algebra failed to preserve
 * datatypes", which used to escape the runner and end the harness's JVM.
 */
class PlannerErrorTest {
    /** Calcite's message, in its shape: the two row types on lines of their own. */
    private static final String CALCITE = "Conversion to relational algebra failed to preserve datatypes:\n"
            + "validated type:\n"
            + "RecordType(VARCHAR(2147483647) CHARACTER SET \"UTF-16LE\" NOT NULL id) NOT NULL\n"
            + "converted type:\n"
            + "RecordType(VARCHAR(2147483647) CHARACTER SET \"UTF-16LE\" id) NOT NULL\n"
            + "rel:\n"
            + "LogicalProject(id=[$0])\n"
            + "  LogicalTableScan(table=[[default_catalog, default_database, src]])\n";

    private static final String ONE_LINE = "Conversion to relational algebra failed to preserve datatypes: "
            + "validated type: "
            + "RecordType(VARCHAR(2147483647) CHARACTER SET \"UTF-16LE\" NOT NULL id) NOT NULL "
            + "converted type: "
            + "RecordType(VARCHAR(2147483647) CHARACTER SET \"UTF-16LE\" id) NOT NULL "
            + "rel: "
            + "LogicalProject(id=[$0]) "
            + "LogicalTableScan(table=[[default_catalog, default_database, src]])";

    @TempDir
    Path dir;
    private String[] args;
    private final ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBuf, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);

    @BeforeEach
    void files() throws Exception {
        Path sql = dir.resolve("BUILD.sql");
        Path json = dir.resolve("BUILD.table.json");
        Files.writeString(sql, "CREATE DATABASE IF NOT EXISTS fluid_iceberg.ns;\n"
                + "INSERT INTO fluid_iceberg.ns.t\nSELECT id FROM src;\n");
        Files.writeString(json, "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":"
                + "[{\"name\":\"id\",\"type\":\"string\",\"required\":true}]}");
        args = new String[] {"--validate-only", sql.toString(), json.toString()};
    }

    /** What the fake's parser (or executeSql) does with a statement. */
    private interface Step<T> {
        T apply(String stmt);
    }

    /**
     * A fake TableEnvironment (a proxy of Flink's TableEnvironmentInternal):
     * its parser and executeSql do what they are given; it has no catalogs.
     * Anything else the runner calls throws, and so fails the test.
     */
    private static Function<Configuration, TableEnvironment> fakeEnvironment(Step<List<Operation>> parse,
            Step<TableResult> execute) {
        Parser parser = (Parser) Proxy.newProxyInstance(Parser.class.getClassLoader(),
                new Class<?>[] {Parser.class}, (p, m, a) -> {
                    if (m.getName().equals("parse")) {
                        return parse.apply((String) a[0]);
                    }
                    throw new UnsupportedOperationException("fake parser: " + m.getName());
                });
        TableEnvironment fake = (TableEnvironment) Proxy.newProxyInstance(
                TableEnvironmentInternal.class.getClassLoader(),
                new Class<?>[] {TableEnvironmentInternal.class}, (p, m, a) -> {
                    switch (m.getName()) {
                        case "getParser":
                            return parser;
                        case "listCatalogs":
                            return new String[0];
                        case "getCurrentCatalog":
                            return "default_catalog";
                        case "getCurrentDatabase":
                            return "default_database";
                        case "executeSql":
                            return execute.apply((String) a[0]);
                        default:
                            throw new UnsupportedOperationException("fake environment: " + m.getName());
                    }
                });
        return conf -> fake;
    }

    /** The CREATE DATABASE fluid writes, which the runner runs as it is. */
    private static List<Operation> plainOperation(String stmt) {
        return List.of(new CreateDatabaseOperation("fluid_iceberg", "ns",
                new CatalogDatabaseImpl(Map.of(), null), true));
    }

    /** A result whose await() returns at once. */
    private static TableResult done(String stmt) {
        return (TableResult) Proxy.newProxyInstance(TableResult.class.getClassLoader(),
                new Class<?>[] {TableResult.class}, (p, m, a) -> null);
    }

    private String errText() {
        return errBuf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void assertionErrorFromThePlannerRefusesTheStatementOnOneLine() {
        int rc = FlinkRunner.run(args, out, err, fakeEnvironment(stmt -> {
            if (stmt.contains("INSERT")) {
                throw new AssertionError(CALCITE);
            }
            return plainOperation(stmt);
        }, PlannerErrorTest::done));
        assertEquals(FlinkRunner.REJECTED, rc);
        String e = errText();
        assertEquals("fluid-flink-runner: statement 2, line 2 (INSERT INTO fluid_iceberg.ns.t): "
                + "java.lang.AssertionError: "
                + ONE_LINE + "\n", e);
        assertFalse(e.contains("\tat "), "no stack trace: " + e);
    }

    @Test
    void assertionErrorFromExecutingAStatementRefusesIt() {
        int rc = FlinkRunner.run(args, out, err, fakeEnvironment(PlannerErrorTest::plainOperation, stmt -> {
            throw new AssertionError("type mismatch:\nrowtype of new rel:\nRecordType(INTEGER a)");
        }));
        assertEquals(FlinkRunner.REJECTED, rc);
        assertEquals("fluid-flink-runner: statement 1, line 1 (CREATE DATABASE IF NOT EXISTS fluid_iceberg.ns): "
                + "java.lang.AssertionError: type mismatch: rowtype of new rel: RecordType(INTEGER a)\n",
                errText());
    }

    @Test
    void stackOverflowIsReportedAndRethrown() {
        StackOverflowError deep = new StackOverflowError("planner recursion");
        StackOverflowError thrown = assertThrows(StackOverflowError.class,
                () -> FlinkRunner.run(args, out, err, fakeEnvironment(stmt -> {
                    throw deep;
                }, PlannerErrorTest::done)));
        assertSame(deep, thrown);
        assertEquals("fluid-flink-runner: statement 1, line 1 (CREATE DATABASE IF NOT EXISTS fluid_iceberg.ns): "
                + "java.lang.StackOverflowError: planner recursion\n", errText());
    }

    @Test
    void anErrorOutsideAStatementIsAFailureNotACrash() {
        int rc = FlinkRunner.run(args, out, err, conf -> {
            throw new NoClassDefFoundError("org/apache/flink/table/planner/delegation/PlannerBase");
        });
        assertEquals(FlinkRunner.FAILED, rc);
        assertEquals("fluid-flink-runner: java.lang.NoClassDefFoundError: "
                + "org/apache/flink/table/planner/delegation/PlannerBase\n", errText());
    }
}
