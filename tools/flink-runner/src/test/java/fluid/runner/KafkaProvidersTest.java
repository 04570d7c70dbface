// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What a Kafka table may ask of the Kafka client's EnvVarConfigProvider (fluid-sqlgen(1)). */
class KafkaProvidersTest {
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"${fluidenv:KAFKA_USERNAME}\" password=\"${fluidenv:KAFKA_PASSWORD}\";";
    private static final String SECRET = "s3cr3t-value";

    private static Function<String, String> env(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m::get;
    }

    private static final Function<String, String> ENV = env("KAFKA_USERNAME", "fluid", "KAFKA_PASSWORD", SECRET,
            "KAFKA_TRUSTSTORE_PASSWORD", SECRET, "OTHER", SECRET);

    /** A table as fluid-sqlgen writes it for SCRAM over TLS with a truststore password. */
    private static Map<String, String> fluidTable() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "kafka");
        o.put("topic", "t");
        o.put("properties.security.protocol", "SASL_SSL");
        o.put("properties.sasl.jaas.config", SCRAM);
        o.put("properties.ssl.truststore.password", "${fluidenv:KAFKA_TRUSTSTORE_PASSWORD}");
        o.put("properties.config.providers", "fluidenv");
        o.put("properties.config.providers.fluidenv.class",
                "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        o.put("properties.config.providers.fluidenv.param.allowlist.pattern",
                "^(KAFKA_PASSWORD|KAFKA_TRUSTSTORE_PASSWORD|KAFKA_USERNAME)$");
        return o;
    }

    /** --env-allow as the plan would bind it for fluidTable(). */
    private static final Set<String> ALLOW = Set.of("KAFKA_USERNAME", "KAFKA_PASSWORD", "KAFKA_TRUSTSTORE_PASSWORD");

    private static KafkaProviders.RefException refused(Map<String, String> o, Function<String, String> e) {
        return refused(o, ALLOW, e);
    }

    private static KafkaProviders.RefException refused(Map<String, String> o, Set<String> allow,
            Function<String, String> e) {
        KafkaProviders.RefException x = assertThrows(KafkaProviders.RefException.class,
                () -> KafkaProviders.check(o, allow, e));
        assertFalse(x.getMessage().contains(SECRET), x.getMessage());
        return x;
    }

    @Test
    void acceptsWhatFluidWrites() throws Exception {
        Map<String, String> o = fluidTable();
        Map<String, String> before = new LinkedHashMap<>(o);
        assertTrue(KafkaProviders.check(o, ALLOW, ENV));
        assertEquals(before, o, "nothing resolved into the options");
    }

    @Test
    void aTableWithoutReferencesNeedsNothing() throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("connector", "kafka");
        o.put("properties.bootstrap.servers", "b:9092");
        assertFalse(KafkaProviders.check(o, Set.of(), env()));
        o.put("connector", "iceberg");
        o.put("uri", "http://x");
        assertFalse(KafkaProviders.check(o, Set.of(), env()));
    }

    @Test
    void refusesAWiderAllowlist() {
        for (String p : new String[] {".*", "KAFKA_.*", "^(KAFKA_PASSWORD|KAFKA_TRUSTSTORE_PASSWORD|KAFKA_USERNAME|OTHER)$",
            "KAFKA_PASSWORD|KAFKA_TRUSTSTORE_PASSWORD|KAFKA_USERNAME"}) {
            Map<String, String> o = fluidTable();
            o.put("properties.config.providers.fluidenv.param.allowlist.pattern", p);
            assertFalse(refused(o, ENV).environment, p);
        }
        Map<String, String> o = fluidTable();
        o.remove("properties.config.providers.fluidenv.param.allowlist.pattern");
        refused(o, ENV);
    }

    @Test
    void refusesAnotherProviderOrClass() {
        Map<String, String> o = fluidTable();
        o.put("properties.config.providers", "fluidenv,file");
        o.put("properties.config.providers.file.class",
                "org.apache.kafka.common.config.provider.FileConfigProvider");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.config.providers.fluidenv.class",
                "org.apache.kafka.common.config.provider.FileConfigProvider");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.config.providers.fluidenv.param.other", "x");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.Config.Providers.fluidenv.param.other", "x");
        refused(o, ENV);
    }

    @Test
    void refusesProvidersOutsideAKafkaTable() {
        Map<String, String> o = fluidTable();
        o.put("connector", "upsert-kafka");
        assertTrue(refused(o, ENV).getMessage().contains("'kafka' table"));
    }

    @Test
    void refusesAReferenceOutsideTheCredentialOptions() {
        Map<String, String> o = fluidTable();
        o.put("properties.client.id", "${fluidenv:KAFKA_PASSWORD}");
        assertTrue(refused(o, ENV).getMessage().contains("properties.client.id"));
        o = fluidTable();
        o.put("properties.ssl.truststore.location", "${file:/etc/passwd:x}");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.ssl.truststore.password", "${fluidenv::KAFKA_TRUSTSTORE_PASSWORD}");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.ssl.truststore.password", "x${fluidenv:KAFKA_TRUSTSTORE_PASSWORD}");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.ssl.truststore.password", "${fluid:env:KAFKA_TRUSTSTORE_PASSWORD}");
        refused(o, ENV);
    }

    @Test
    void theJaasLineHoldsReferencesOnlyAsWholeStrings() throws Exception {
        Map<String, String> o = fluidTable();
        o.put("properties.sasl.jaas.config", "org.x required username=${fluidenv:KAFKA_USERNAME} password=\"${fluidenv:KAFKA_PASSWORD}\";");
        refused(o, ENV);
        o = fluidTable();
        o.put("properties.sasl.jaas.config", SCRAM.replace(";", " x=\"${file:/etc/passwd:k}\";"));
        refused(o, ENV);
        o = fluidTable();
        o.remove("properties.ssl.truststore.password");
        o.put("properties.sasl.jaas.config", "${fluidenv:KAFKA_JAAS}");
        o.put("properties.config.providers.fluidenv.param.allowlist.pattern", "^(KAFKA_JAAS)$");
        assertTrue(KafkaProviders.check(o, Set.of("KAFKA_JAAS"), env("KAFKA_JAAS", "a \"b\" c;")));
    }

    @Test
    void aVariableThePodLacksOrCannotUse() {
        KafkaProviders.RefException x = refused(fluidTable(), env("KAFKA_USERNAME", "fluid",
                "KAFKA_TRUSTSTORE_PASSWORD", SECRET));
        assertTrue(x.environment);
        assertTrue(x.getMessage().contains("KAFKA_PASSWORD"), x.getMessage());
        x = refused(fluidTable(), env("KAFKA_USERNAME", "fluid", "KAFKA_PASSWORD", SECRET + "\n",
                "KAFKA_TRUSTSTORE_PASSWORD", SECRET));
        assertTrue(x.environment);
        // Inside a JAAS string, a quote or backslash could end it and add options.
        for (String bad : new String[] {SECRET + "\" debug=\"true", SECRET + "\\"}) {
            x = refused(fluidTable(), env("KAFKA_USERNAME", "fluid", "KAFKA_PASSWORD", bad,
                    "KAFKA_TRUSTSTORE_PASSWORD", SECRET));
            assertTrue(x.environment);
            assertFalse(x.getMessage().contains("debug"), x.getMessage());
        }
    }

    @Test
    void aVariableOutsideEnvAllowIsRefusedAndNotRead() {
        java.util.List<String> read = new java.util.ArrayList<>();
        Function<String, String> spy = n -> {
            read.add(n);
            return ENV.apply(n);
        };
        // The script names KAFKA_PASSWORD and its allowlist pattern admits it; the plan did not bind it.
        KafkaProviders.RefException x = refused(fluidTable(), Set.of("KAFKA_USERNAME", "KAFKA_TRUSTSTORE_PASSWORD"),
                spy);
        assertFalse(x.environment, "the script's fault: exit 4, not 2");
        assertTrue(x.getMessage().contains("KAFKA_PASSWORD") && x.getMessage().contains("--env-allow"),
                x.getMessage());
        assertFalse(read.contains("KAFKA_PASSWORD"), "a variable outside --env-allow was looked up: " + read);
        // No --env-allow at all: no variable.
        x = refused(fluidTable(), Set.of(), spy);
        assertTrue(x.getMessage().contains("(absent: none)"), x.getMessage());
        // The truststore password alone outside it.
        refused(fluidTable(), Set.of("KAFKA_USERNAME", "KAFKA_PASSWORD"), ENV);
        // A whole-line JAAS variable outside it.
        Map<String, String> o = fluidTable();
        o.remove("properties.ssl.truststore.password");
        o.put("properties.sasl.jaas.config", "${fluidenv:KAFKA_JAAS}");
        o.put("properties.config.providers.fluidenv.param.allowlist.pattern", "^(KAFKA_JAAS)$");
        refused(o, ALLOW, env("KAFKA_JAAS", "x"));
    }

    @Test
    void hintsAreSeen() {
        assertTrue(Statements.hasHint("INSERT INTO a SELECT * FROM k /*+ OPTIONS('x'='y') */"));
        assertFalse(Statements.hasHint("INSERT INTO a SELECT * FROM k /* a comment */"));
    }
}
