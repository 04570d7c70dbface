// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.junit.jupiter.api.Test;

/**
 * The credential's path end to end but for a broker: a Kafka table as
 * fluid-sqlgen writes it, through the runner's guard and Flink's planner into
 * a JobGraph (what HA persists to high-availability.storageDir), then the
 * Kafka client's own resolution. The variables are set in this JVM by
 * pom.xml (surefire), as a Secret sets them in a pod.
 */
class KafkaProvidersJobTest {
    private static final String USER = "FLUID_TEST_KAFKA_USER";
    private static final String PASSWORD = "FLUID_TEST_KAFKA_PASSWORD";
    private static final String OTHER = "FLUID_TEST_OTHER";

    private static String env(String name) {
        String v = System.getenv(name);
        assertNotNull(v, name + " is set by pom.xml's surefire configuration");
        return v;
    }

    /** The source's options as fluid-sqlgen writes them for SCRAM over SASL_SSL. */
    private static Map<String, String> options(String pattern) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "kafka");
        o.put("topic", "orders");
        o.put("properties.bootstrap.servers", "127.0.0.1:1");
        o.put("properties.group.id", "g");
        o.put("scan.startup.mode", "earliest-offset");
        o.put("value.format", "json");
        o.put("properties.security.protocol", "SASL_SSL");
        o.put("properties.sasl.mechanism", "SCRAM-SHA-512");
        o.put("properties.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"${fluidenv:" + USER + "}\" password=\"${fluidenv:" + PASSWORD + "}\";");
        o.put("properties.ssl.endpoint.identification.algorithm", "https");
        o.put("properties.config.providers", "fluidenv");
        o.put("properties.config.providers.fluidenv.class",
                "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        o.put("properties.config.providers.fluidenv.param.allowlist.pattern", pattern);
        return o;
    }

    private static String create(Map<String, String> o) {
        StringBuilder sb = new StringBuilder("CREATE TEMPORARY TABLE source_events (a STRING) WITH (");
        String sep = "";
        for (Map.Entry<String, String> e : o.entrySet()) {
            sb.append(sep).append('\'').append(e.getKey()).append("' = '")
                    .append(e.getValue().replace("'", "''")).append('\'');
            sep = ", ";
        }
        return sb.append(")").toString();
    }

    private static boolean holds(byte[] haystack, String needle) {
        byte[] n = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + n.length <= haystack.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (haystack[i + j] != n[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** --env-allow as the plan binds it for options(). */
    private static final java.util.Set<String> ALLOW = java.util.Set.of(USER, PASSWORD);

    private static ScriptPolicy.Context context(StreamTableEnvironment tEnv) throws Exception {
        return new ScriptPolicy.Context(ExpectedTable.parse(new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree("{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"a\","
                        + "\"type\":\"string\",\"required\":false}]}")),
                ALLOW, System::getenv, tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase());
    }

    @Test
    void theJobGraphHoldsTheReferencesAndNoValue() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        TableEnvironmentInternal internal = (TableEnvironmentInternal) tEnv;
        String ddl = create(options("^(" + PASSWORD + "|" + USER + ")$"));
        List<Operation> ops = internal.getParser().parse(ddl);
        FlinkRunner.allowed(ops.get(0), ddl, "statement 1", context(tEnv));
        tEnv.executeSql(ddl).await();
        tEnv.executeSql("CREATE TEMPORARY TABLE snk (a STRING) WITH ('connector' = 'blackhole')").await();
        StreamStatementSet set = tEnv.createStatementSet();
        set.addInsertSql("INSERT INTO snk SELECT a FROM source_events");
        set.attachAsDataStream();
        JobGraph graph = env.getStreamGraph().getJobGraph();
        byte[] bytes = InstantiationUtil.serializeObject(graph);

        // The KafkaSource is in it, with the references as written ...
        assertTrue(holds(bytes, "${fluidenv:" + PASSWORD + "}"), "the reference is in the JobGraph");
        assertTrue(holds(bytes, "EnvVarConfigProvider"), "the provider is in the JobGraph");
        // ... and no value of the pod's variables.
        assertFalse(holds(bytes, env(PASSWORD)), "the password is in the serialized JobGraph");
        assertFalse(holds(bytes, env(USER)), "the user name is in the serialized JobGraph");
    }

    @Test
    void theRunnerRefusesWhatCouldChangeTheOptionsLater() throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(
                StreamExecutionEnvironment.getExecutionEnvironment());
        TableEnvironmentInternal internal = (TableEnvironmentInternal) tEnv;
        ScriptPolicy.Context ctx = context(tEnv);
        // A catalog table: Flink parses no ALTER of a temporary one.
        String ddl = create(options("^(" + PASSWORD + "|" + USER + ")$")).replace("TEMPORARY ", "");
        tEnv.executeSql(ddl).await();
        String alter = "ALTER TABLE source_events SET "
                + "('properties.config.providers.fluidenv.param.allowlist.pattern' = '.*')";
        FlinkRunner.Failure f = assertThrows(FlinkRunner.Failure.class, () -> FlinkRunner.allowed(
                internal.getParser().parse(alter).get(0), alter, "statement 2", ctx));
        assertEquals(FlinkRunner.REJECTED, f.status);
        tEnv.executeSql("CREATE TEMPORARY TABLE snk (a STRING) WITH ('connector' = 'blackhole')").await();
        String hint = "INSERT INTO snk SELECT a FROM source_events "
                + "/*+ OPTIONS('properties.config.providers' = 'x') */";
        f = assertThrows(FlinkRunner.Failure.class, () -> FlinkRunner.allowed(
                internal.getParser().parse(hint).get(0), hint, "statement 3", ctx));
        assertEquals(FlinkRunner.REJECTED, f.status);
        // A wider allowlist in the CREATE itself: refused, exit 4, no value in the message.
        String wide = create(options("FLUID_TEST_.*"));
        f = assertThrows(FlinkRunner.Failure.class, () -> FlinkRunner.allowed(
                internal.getParser().parse(wide).get(0), wide, "statement 4", ctx));
        assertEquals(FlinkRunner.REJECTED, f.status);
        assertFalse(f.getMessage().contains(env(PASSWORD)), f.getMessage());
    }

    /** The client's configuration from the table's properties.* options. */
    private static Properties client(Map<String, String> o) {
        Properties p = new Properties();
        for (Map.Entry<String, String> e : o.entrySet()) {
            if (e.getKey().startsWith("properties.")) {
                p.put(e.getKey().substring("properties.".length()), e.getValue());
            }
        }
        p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        return p;
    }

    @Test
    void theKafkaClientResolvesOnlyTheAllowlistedVariables() {
        Map<String, String> o = options("^(" + PASSWORD + "|" + USER + ")$");
        ConsumerConfig c = new ConsumerConfig(client(o));
        String jaas = c.getPassword(SaslConfigs.SASL_JAAS_CONFIG).value();
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + env(USER) + "\" password=\"" + env(PASSWORD) + "\";", jaas);

        // A variable outside the allowlist stays a reference: the provider does not read it.
        o.put("properties.sasl.jaas.config", "x required username=\"${fluidenv:" + USER
                + "}\" password=\"${fluidenv:" + OTHER + "}\";");
        jaas = new ConsumerConfig(client(o)).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value();
        assertFalse(jaas.contains(env(OTHER)), "a variable outside the allowlist was read");
        assertTrue(jaas.contains("${fluidenv:" + OTHER + "}"), jaas);
        // The anchors matter: without them a prefix pattern would admit FLUID_TEST_OTHER.
        o.put("properties.config.providers.fluidenv.param.allowlist.pattern", "FLUID_TEST_.*");
        jaas = new ConsumerConfig(client(o)).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value();
        assertTrue(jaas.contains(env(OTHER)), "the unanchored pattern reads more (the runner refuses it)");
        assertThrows(KafkaProviders.RefException.class, () -> KafkaProviders.check(o, ALLOW, System::getenv));
    }
}
