package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.api.internal.TableResultInternal;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.junit.jupiter.api.Test;

/** The ${fluid:env:NAME} references of the Kafka source (fluid-sqlgen(1)). */
class KafkaSecretsTest {
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"${fluid:env:KAFKA_USERNAME}\" password=\"${fluid:env:KAFKA_PASSWORD}\";";

    private static Function<String, String> env(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m::get;
    }

    private static Map<String, String> kafka(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("connector", "kafka");
        m.put("topic", "orders");
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void resolvesTheJaasStringsAndThePasswords() throws Exception {
        Map<String, String> out = KafkaSecrets.resolve(kafka(
                "properties.sasl.jaas.config", SCRAM,
                "properties.ssl.truststore.password", "${fluid:env:TS_PW}"),
                env("KAFKA_USERNAME", "orders", "KAFKA_PASSWORD", "s3cr3t", "TS_PW", "trust"));
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"orders\" password=\"s3cr3t\";", out.get("properties.sasl.jaas.config"));
        assertEquals("trust", out.get("properties.ssl.truststore.password"));
        assertEquals("orders", out.get("topic"));
    }

    @Test
    void aPasswordCannotEndItsJaasString() throws Exception {
        Map<String, String> out = KafkaSecrets.resolve(kafka("properties.sasl.jaas.config", SCRAM),
                env("KAFKA_USERNAME", "u", "KAFKA_PASSWORD", "x\" debug=\"true\\"));
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"u\" password=\"x\\\" debug=\\\"true\\\\\";", out.get("properties.sasl.jaas.config"));
    }

    @Test
    void theWholeJaasLineMayBeOneVariable() throws Exception {
        String line = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"b\";";
        Map<String, String> out = KafkaSecrets.resolve(
                kafka("properties.sasl.jaas.config", "${fluid:env:KAFKA_JAAS}"), env("KAFKA_JAAS", line));
        assertEquals(line, out.get("properties.sasl.jaas.config"));
    }

    @Test
    void aReferenceOutsideTheCredentialOptionsIsRefused() {
        for (Map<String, String> o : List.of(
                kafka("properties.bootstrap.servers", "${fluid:env:KAFKA_PASSWORD}"),
                kafka("topic", "${fluid:env:KAFKA_PASSWORD}"),
                kafka("value.avro-confluent.url", "http://h/${fluid:env:KAFKA_PASSWORD}"),
                Map.of("connector", "filesystem", "properties.ssl.key.password", "${fluid:env:KAFKA_PASSWORD}"))) {
            KafkaSecrets.RefException e = assertThrows(KafkaSecrets.RefException.class,
                    () -> KafkaSecrets.resolve(o, env("KAFKA_PASSWORD", "s3cr3t")));
            assertFalse(e.environment);
            assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
        }
    }

    @Test
    void aReferenceMustBeAllOfAPasswordOrAQuotedJaasString() {
        for (Map<String, String> o : List.of(
                kafka("properties.ssl.truststore.password", "x${fluid:env:P}"),
                kafka("properties.sasl.jaas.config", "M required password=${fluid:env:P};"),
                kafka("properties.sasl.jaas.config", "M required password=\"a${fluid:env:P}\";"),
                kafka("properties.sasl.jaas.config", "M required a=\"\\\"\" password=\"${fluid:env:P}\";"))) {
            assertThrows(KafkaSecrets.RefException.class, () -> KafkaSecrets.resolve(o, env("P", "s3cr3t")),
                    o.toString());
        }
    }

    @Test
    void onlyAPlainNameIsRead() {
        KafkaSecrets.RefException e = assertThrows(KafkaSecrets.RefException.class,
                () -> KafkaSecrets.resolve(kafka("properties.ssl.key.password", "${fluid:env:A-B}"),
                        env("A-B", "s3cr3t")));
        assertTrue(e.getMessage().contains("must name an environment variable"), e.getMessage());
    }

    @Test
    void anUnsetEmptyOrMultiLineVariableIsAnEnvironmentErrorWithoutItsValue() {
        for (Function<String, String> en : List.of(env(), env("P", ""), env("P", "s3cr3t\nmore"))) {
            KafkaSecrets.RefException e = assertThrows(KafkaSecrets.RefException.class,
                    () -> KafkaSecrets.resolve(kafka("properties.ssl.key.password", "${fluid:env:P}"), en));
            assertTrue(e.environment);
            assertTrue(e.getMessage().contains(" P"), e.getMessage());
            assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
        }
    }

    @Test
    void optionsWithoutReferencesAreLeftAlone() throws Exception {
        Map<String, String> o = kafka("properties.security.protocol", "SASL_SSL");
        assertFalse(KafkaSecrets.hasReferences(o));
        assertEquals(o, KafkaSecrets.resolve(o, env()));
    }

    /** A fake TableEnvironment that records the operations it is given to run. */
    private static TableEnvironmentInternal recorder(List<Operation> ran) {
        TableResult done = (TableResult) Proxy.newProxyInstance(TableResultInternal.class.getClassLoader(),
                new Class<?>[] {TableResultInternal.class}, (p, m, a) -> null);
        return (TableEnvironmentInternal) Proxy.newProxyInstance(
                TableEnvironmentInternal.class.getClassLoader(),
                new Class<?>[] {TableEnvironmentInternal.class}, (p, m, a) -> {
                    if (m.getName().equals("executeInternal") && a.length == 1 && a[0] instanceof Operation) {
                        ran.add((Operation) a[0]);
                        return done;
                    }
                    throw new UnsupportedOperationException("fake environment: " + m.getName());
                });
    }

    /** The source table as Flink's parser gives it for fluid-sqlgen's DDL. */
    private static CreateTableOperation source(boolean temporary) {
        ResolvedSchema schema = ResolvedSchema.of(Column.physical("id", DataTypes.STRING()));
        CatalogTable t = CatalogTable.newBuilder()
                .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                .options(kafka("properties.bootstrap.servers", "localhost:9093",
                        "properties.security.protocol", "SASL_SSL",
                        "properties.sasl.mechanism", "SCRAM-SHA-512",
                        "properties.sasl.jaas.config", SCRAM, "value.format", "json"))
                .build();
        return new CreateTableOperation(ObjectIdentifier.of("default_catalog", "default_database", "src"),
                new ResolvedCatalogTable(t, schema), false, temporary);
    }

    @Test
    void theRunnerCreatesTheTableWithTheResolvedOptions() throws Exception {
        List<Operation> ran = new ArrayList<>();
        CreateTableOperation op = source(true);
        FlinkRunner.createResolved(recorder(ran), op, "statement 1",
                env("KAFKA_USERNAME", "orders", "KAFKA_PASSWORD", "s3cr3t"));
        assertEquals(1, ran.size());
        CreateTableOperation got = (CreateTableOperation) ran.get(0);
        assertTrue(got.isTemporary());
        assertEquals(op.getTableIdentifier(), got.getTableIdentifier());
        assertEquals(op.getCatalogTable().getUnresolvedSchema(), got.getCatalogTable().getUnresolvedSchema());
        Map<String, String> o = got.getCatalogTable().getOptions();
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"orders\" password=\"s3cr3t\";", o.get("properties.sasl.jaas.config"));
        assertEquals("SCRAM-SHA-512", o.get("properties.sasl.mechanism"));
        // The parsed operation keeps its references.
        assertEquals(SCRAM, op.getCatalogTable().getOptions().get("properties.sasl.jaas.config"));
    }

    @Test
    void aPermanentTableIsNotGivenACredential() {
        List<Operation> ran = new ArrayList<>();
        FlinkRunner.Failure f = assertThrows(FlinkRunner.Failure.class, () -> FlinkRunner.createResolved(
                recorder(ran), source(false), "statement 1",
                env("KAFKA_USERNAME", "orders", "KAFKA_PASSWORD", "s3cr3t")));
        assertEquals(FlinkRunner.REJECTED, f.status);
        assertFalse(f.getMessage().contains("s3cr3t"));
        assertTrue(ran.isEmpty());
    }

    @Test
    void anUnsetVariableIsExitStatusTwo() {
        List<Operation> ran = new ArrayList<>();
        FlinkRunner.Failure f = assertThrows(FlinkRunner.Failure.class, () -> FlinkRunner.createResolved(
                recorder(ran), source(true), "statement 1", env("KAFKA_USERNAME", "u")));
        assertEquals(FlinkRunner.USAGE, f.status);
        assertTrue(f.getMessage().startsWith("statement 1: option 'properties.sasl.jaas.config' names the "
                + "environment variable KAFKA_PASSWORD, which is not set"), f.getMessage());
        assertTrue(ran.isEmpty());
    }
}
