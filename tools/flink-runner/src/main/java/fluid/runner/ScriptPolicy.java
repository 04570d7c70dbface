// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.table.operations.ddl.CreateCatalogOperation;
import org.apache.flink.table.operations.ddl.CreateDatabaseOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.apache.flink.table.operations.ddl.CreateViewOperation;

/**
 * What the runner runs: the statement kinds fluid-sqlgen writes, each with the
 * names and options it writes (lib/sqlgen.c, sqlgen_security.c, sqlgen_cdc.c),
 * and nothing else. An allowlist, not a list of what to refuse: a statement
 * kind Flink adds later (or one fluid never writes: ADD JAR, CREATE FUNCTION,
 * LOAD MODULE, USE, ALTER, DROP, RESET, EXECUTE STATEMENT SET, a query) is
 * refused without anyone having thought of it.
 *
 * <p>Two passes. {@link #checkText} runs over the whole script before the
 * runner creates its environment, so nothing has run when it refuses: the
 * leading words of every statement, and every environment reference in the
 * text (a {@code ${fluidenv:NAME}} anywhere, the {@code env:NAME} of a
 * CREATE CATALOG) against --env-allow. {@link #checkOperation} then judges
 * each statement as Flink parsed it, just before it runs: that is the one that
 * counts, as the text pass cannot see through every spelling SQL allows.
 *
 * <p>The variables a script may name are --env-allow's only (the plan binds
 * them in the FlinkDeployment's args, under its digest), never the ones the
 * script names.
 */
final class ScriptPolicy {
    private ScriptPolicy() {}

    /** The one catalog fluid writes (lib/sqlgen.h, SQLGEN_CATALOG). */
    static final String CATALOG = "fluid_iceberg";

    /** The names of the source fluid writes: the Kafka table and the view over it. */
    static final Set<String> SOURCE_TABLES = Set.of("source_events", "source_events_avro", "source_changes");
    static final String SOURCE_VIEW = "source_events";

    /** A variable name of --env-allow. */
    static final Pattern VAR = Pattern.compile("[A-Z_][A-Z0-9_]*");

    /** The kinds, by their leading words, that checkText lets through to checkOperation. */
    private static final String[][] KINDS = {
        {"SET"}, {"CREATE", "CATALOG"}, {"CREATE", "DATABASE"}, {"CREATE", "TABLE"},
        {"CREATE", "TEMPORARY", "TABLE"}, {"CREATE", "TEMPORARY", "VIEW"}, {"INSERT", "INTO"}};
    static final String KINDS_TEXT = "SET 'pipeline.name', SET 'table.local-time-zone' = 'UTC', "
            + "CREATE CATALOG " + CATALOG + " (Iceberg REST), CREATE DATABASE IF NOT EXISTS, "
            + "CREATE TABLE IF NOT EXISTS of the job's table, CREATE TEMPORARY TABLE of the Kafka source, "
            + "CREATE TEMPORARY VIEW " + SOURCE_VIEW + ", INSERT INTO the job's table";

    /** The catalog's options: what sqlgen.c writes, and fluid-check's catalog properties (check_expose.c). */
    static final Set<String> CATALOG_OPTIONS = Set.of("type", "catalog-type", "uri", "warehouse", "io-impl",
            "token", "credential", "oauth2-server-uri", "scope",
            "cache-enabled", "client.region", "s3.checksum-enabled", "s3.delete-enabled", "s3.endpoint",
            "s3.multipart.num-threads", "s3.multipart.part-size-bytes", "s3.path-style-access",
            "s3.retry.num-retries", "s3.signer.uri", "s3.sse.type", "s3.use-arn-region-enabled",
            "s3.write.storage-class");
    static final String IO_IMPL = "org.apache.iceberg.aws.s3.S3FileIO";
    /** Iceberg's REST catalog resolves a value "env:NAME" from the pod's environment. */
    static final Pattern ENV_REF = Pattern.compile("env:([A-Za-z_][A-Za-z0-9_]*)");

    /** The job table's options (sqlgen.c table(), sqlgen_cdc.c). */
    static final Map<String, Set<String>> TABLE_OPTIONS = Map.of(
            "format-version", Set.of("2"),
            "write.format.default", Set.of("parquet", "orc", "avro"),
            "write.upsert.enabled", Set.of("true"));

    /** The Kafka source's options, each with its values where fluid writes a fixed word (null: any text). */
    static final Map<String, Set<String>> KAFKA_OPTIONS = kafkaOptions();

    private static Map<String, Set<String>> kafkaOptions() {
        Map<String, Set<String>> m = new java.util.HashMap<>();
        Set<String> bool = Set.of("true", "false");
        m.put("connector", Set.of("kafka"));
        for (String k : new String[] {"topic", "properties.bootstrap.servers", "properties.group.id",
            "properties.sasl.jaas.config", "properties.ssl.truststore.location",
            "properties.ssl.keystore.location", "properties.ssl.truststore.password",
            "properties.ssl.keystore.password", "properties.ssl.key.password",
            "properties.config.providers.fluidenv.param.allowlist.pattern", "key.fields", "key.fields-prefix",
            "key.avro-confluent.url", "value.avro-confluent.url"}) {
            m.put(k, null);
        }
        m.put("properties.security.protocol", Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"));
        m.put("properties.sasl.mechanism", Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"));
        m.put("properties.ssl.truststore.type", Set.of("PKCS12", "JKS", "PEM"));
        m.put("properties.ssl.keystore.type", Set.of("PKCS12", "JKS", "PEM"));
        m.put("properties.ssl.endpoint.identification.algorithm", Set.of("https"));
        m.put(KafkaProviders.PROVIDERS, Set.of(KafkaProviders.NAME));
        m.put(KafkaProviders.PROVIDER_CLASS, Set.of(KafkaProviders.CLASS));
        m.put("scan.startup.mode", Set.of("group-offsets", "earliest-offset", "latest-offset"));
        m.put("properties.auto.offset.reset", Set.of("earliest"));
        m.put("key.format", Set.of("raw", "json", "avro-confluent"));
        m.put("value.format", Set.of("json", "avro-confluent", "debezium-json", "canal-json"));
        m.put("value.fields-include", Set.of("EXCEPT_KEY"));
        m.put("value.json.fail-on-missing-field", bool);
        m.put("value.json.ignore-parse-errors", bool);
        m.put("value.debezium-json.ignore-parse-errors", bool);
        m.put("value.debezium-json.schema-include", Set.of("false"));
        m.put("value.canal-json.ignore-parse-errors", bool);
        return Collections.unmodifiableMap(m);
    }

    /** The JAAS line fluid writes from usernameEnv and passwordEnv (sqlgen_security.c jaas()). */
    static final Pattern JAAS_LINE = Pattern.compile("(org\\.apache\\.kafka\\.common\\.security\\.plain\\."
            + "PlainLoginModule|org\\.apache\\.kafka\\.common\\.security\\.scram\\.ScramLoginModule) required "
            + "username=\"\\$\\{fluidenv:[A-Za-z_][A-Za-z0-9_]*\\}\" "
            + "password=\"\\$\\{fluidenv:[A-Za-z_][A-Za-z0-9_]*\\}\";");
    /** A store's location: an absolute path of plain segments (lib/path.c path_pod_ok()). */
    static final Pattern POD_PATH = Pattern.compile("(/[A-Za-z0-9._-]+)+");

    /** A statement the runner will not run, or a variable the pod cannot give (environment). */
    static final class Refusal extends Exception {
        final boolean environment;

        Refusal(String msg) {
            this(msg, false);
        }

        Refusal(String msg, boolean environment) {
            super(msg);
            this.environment = environment;
        }
    }

    /**
     * --env-allow's value: NAME[,NAME...], each [A-Z_][A-Z0-9_]*. Throws
     * IllegalArgumentException, naming what is wrong, for anything else.
     */
    static Set<String> parseEnvAllow(String arg) {
        TreeSet<String> out = new TreeSet<>();
        for (String n : arg.split(",", -1)) {
            if (!VAR.matcher(n).matches()) {
                throw new IllegalArgumentException("--env-allow: '" + printable(n) + "' is not a variable name "
                        + "([A-Z_][A-Z0-9_]*; NAME[,NAME...])");
            }
            out.add(n);
        }
        return Collections.unmodifiableSet(out);
    }

    /** s with control characters as '?', cut at 60: for a message. */
    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 60; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) ? '?' : c);
        }
        return s.length() > 60 ? sb + "..." : sb.toString();
    }

    /** "statement N, line L (its first line)": how every refusal names a statement. */
    static String where(int no, Statements.Statement st) {
        return "statement " + no + ", line " + st.line + " (" + firstLine(st.text) + ")";
    }

    static String firstLine(String stmt) {
        String s = stmt.strip();
        int nl = s.indexOf('\n');
        if (nl >= 0) {
            s = s.substring(0, nl);
        }
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }

    /**
     * The whole script, before anything runs: every statement's kind by its
     * leading words, and every variable it names in its text against allow.
     */
    static void checkText(List<Statements.Statement> stmts, Set<String> allow) throws Refusal {
        int no = 0;
        for (Statements.Statement st : stmts) {
            no++;
            String where = where(no, st);
            if (!knownKind(st.text)) {
                throw new Refusal(where + ": " + leadingWords(st.text) + " is not a statement fluid writes; the "
                        + "runner runs only: " + KINDS_TEXT);
            }
            // As written, and with U&'...' escapes (\XXXX, \+XXXXXX) decoded.
            for (String text : List.of(st.text, unescape(st.text))) {
                Matcher m = Pattern.compile("\\$\\{\\s*fluidenv\\s*:([^}]*)\\}?").matcher(text);
                while (m.find()) {
                    String name = m.group(1);
                    if (!allow.contains(name)) {
                        throw new Refusal(where + ": references the variable " + printable(name)
                                + ", which --env-allow " + allowText(allow) + " does not allow");
                    }
                }
                if (Statements.startsWithWords(st.text, "CREATE", "CATALOG")) {
                    Matcher e = Pattern.compile("'\\s*(?i:env)\\s*:([^']*)'").matcher(text);
                    while (e.find()) {
                        if (!allow.contains(e.group(1))) {
                            throw new Refusal(where + ": the catalog reads the variable " + printable(e.group(1))
                                    + ", which --env-allow " + allowText(allow) + " does not allow");
                        }
                    }
                }
            }
        }
    }

    static String allowText(Set<String> allow) {
        return allow.isEmpty() ? "(absent: none)" : String.join(",", new TreeSet<>(allow));
    }

    private static boolean knownKind(String stmt) {
        for (String[] k : KINDS) {
            if (Statements.startsWithWords(stmt, k)) {
                return true;
            }
        }
        return false;
    }

    /** The first words of stmt, for naming its kind (at most three, up to the first that is not a word). */
    static String leadingWords(String stmt) {
        String[] w = stmt.strip().split("\\s+", 4);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < w.length && i < 3; i++) {
            if (!w[i].matches("[A-Za-z_]+")) {
                break;
            }
            sb.append(sb.length() > 0 ? " " : "").append(w[i].toUpperCase(Locale.ROOT));
        }
        return sb.length() == 0 ? "'" + printable(firstLine(stmt)) + "'" : sb.toString();
    }

    /** text with \XXXX and \+XXXXXX replaced by their characters (a U&'...' literal's escapes). */
    static String unescape(String text) {
        StringBuilder sb = new StringBuilder();
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 7 < n && text.charAt(i + 1) == '+' && hex(text, i + 2, 6)) {
                sb.appendCodePoint(Integer.parseInt(text.substring(i + 2, i + 8), 16) & 0x1fffff);
                i += 7;
            } else if (c == '\\' && i + 4 < n && hex(text, i + 1, 4)) {
                sb.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean hex(String s, int from, int len) {
        for (int i = from; i < from + len; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** What checkOperation needs to know about the run. */
    static final class Context {
        final ExpectedTable expected;
        final Set<String> allow;
        final Function<String, String> env;
        final String builtinCatalog;
        final String builtinDatabase;

        Context(ExpectedTable expected, Set<String> allow, Function<String, String> env, String builtinCatalog,
                String builtinDatabase) {
            this.expected = expected;
            this.allow = allow;
            this.env = env;
            this.builtinCatalog = builtinCatalog;
            this.builtinDatabase = builtinDatabase;
        }
    }

    /**
     * One statement as Flink parsed it, before it runs: one of the kinds fluid
     * writes, with the names and options fluid writes, or a Refusal naming why.
     */
    static void checkOperation(Operation op, String stmt, Context ctx) throws Refusal {
        if (Statements.hasHint(stmt)) {
            throw new Refusal("SQL hints (/*+ ... */) are refused: an OPTIONS hint could change a table's "
                    + "options after they were checked");
        }
        if (op instanceof SetOperation) {
            set((SetOperation) op);
        } else if (op instanceof CreateCatalogOperation) {
            catalog((CreateCatalogOperation) op, ctx);
        } else if (op instanceof CreateDatabaseOperation) {
            database((CreateDatabaseOperation) op, ctx);
        } else if (op instanceof CreateTableOperation && ((CreateTableOperation) op).isTemporary()) {
            source((CreateTableOperation) op, ctx);
        } else if (op instanceof CreateTableOperation) {
            table((CreateTableOperation) op, ctx);
        } else if (op instanceof CreateViewOperation) {
            view((CreateViewOperation) op, ctx);
        } else if (op instanceof SinkModifyOperation) {
            insert((SinkModifyOperation) op, ctx);
        } else {
            throw new Refusal(leadingWords(stmt) + " (" + op.getClass().getSimpleName() + ") is not a statement "
                    + "fluid writes; the runner runs only: " + KINDS_TEXT);
        }
    }

    private static void set(SetOperation set) throws Refusal {
        if (set.getKey().isEmpty() || set.getValue().isEmpty()) {
            throw new Refusal("SET needs a key and a value");
        }
        String k = set.getKey().get();
        String v = set.getValue().get();
        if (k.equals("pipeline.name") || (k.equals("table.local-time-zone") && v.equals("UTC"))) {
            return;
        }
        throw new Refusal("SET '" + printable(k) + "' is not a setting fluid writes (only 'pipeline.name' and "
                + "'table.local-time-zone' = 'UTC'; the plan's configuration comes as --set)");
    }

    private static void catalog(CreateCatalogOperation op, Context ctx) throws Refusal {
        if (!op.getCatalogName().equals(CATALOG)) {
            throw new Refusal("CREATE CATALOG " + printable(op.getCatalogName()) + ": fluid writes only the "
                    + "catalog " + CATALOG);
        }
        Map<String, String> o = op.getProperties();
        need(o, "type", "iceberg", "CREATE CATALOG");
        need(o, "catalog-type", "rest", "CREATE CATALOG");
        need(o, "io-impl", IO_IMPL, "CREATE CATALOG");
        for (String k : new String[] {"uri", "warehouse"}) {
            if (!o.containsKey(k)) {
                throw new Refusal("CREATE CATALOG: no '" + k + "' option (fluid writes it)");
            }
        }
        if (o.containsKey("token") && o.containsKey("credential")) {
            throw new Refusal("CREATE CATALOG: both 'token' and 'credential' (fluid writes one at most)");
        }
        for (Map.Entry<String, String> e : new TreeSet<>(o.keySet()).stream()
                .map(k -> Map.entry(k, o.get(k))).toList()) {
            String k = e.getKey();
            String v = e.getValue() == null ? "" : e.getValue();
            if (!CATALOG_OPTIONS.contains(k)) {
                throw new Refusal("CREATE CATALOG: option '" + printable(k) + "' is not one fluid writes");
            }
            if (k.equals("token") || k.equals("credential")) {
                Matcher m = ENV_REF.matcher(v);
                if (!m.matches()) {
                    throw new Refusal("CREATE CATALOG: option '" + k + "' must be 'env:NAME' (fluid writes no "
                            + "credential by value)");
                }
                if (!ctx.allow.contains(m.group(1))) {
                    throw new Refusal("CREATE CATALOG: option '" + k + "' reads the variable " + m.group(1)
                            + ", which --env-allow " + allowText(ctx.allow) + " does not allow");
                }
                continue;
            }
            if (v.regionMatches(true, 0, "env:", 0, 4) || v.contains("${") || hasControl(v)) {
                throw new Refusal("CREATE CATALOG: option '" + k + "' starts with env:, holds ${ or a control "
                        + "character: Iceberg would resolve it from the pod's environment");
            }
        }
    }

    private static void database(CreateDatabaseOperation op, Context ctx) throws Refusal {
        String name = op.getCatalogName() + "." + op.getDatabaseName();
        if (!op.getCatalogName().equals(CATALOG) || !op.getDatabaseName().equals(ctx.expected.namespace)) {
            throw new Refusal("CREATE DATABASE " + printable(name) + ": fluid writes only the job table's, "
                    + CATALOG + "." + ctx.expected.namespace);
        }
        if (!op.isIgnoreIfExists()) {
            throw new Refusal("CREATE DATABASE " + name + ": fluid writes IF NOT EXISTS");
        }
        if (!op.getCatalogDatabase().getProperties().isEmpty()) {
            throw new Refusal("CREATE DATABASE " + name + ": fluid writes no WITH options");
        }
    }

    private static String expectedName(Context ctx) {
        return CATALOG + "." + ctx.expected.namespace + "." + ctx.expected.name;
    }

    private static boolean isExpected(ObjectIdentifier id, Context ctx) {
        return id.getCatalogName().equals(CATALOG) && id.getDatabaseName().equals(ctx.expected.namespace)
                && id.getObjectName().equals(ctx.expected.name);
    }

    private static boolean builtin(ObjectIdentifier id, Context ctx) {
        return id.getCatalogName().equals(ctx.builtinCatalog) && id.getDatabaseName().equals(ctx.builtinDatabase);
    }

    private static void table(CreateTableOperation op, Context ctx) throws Refusal {
        ObjectIdentifier id = op.getTableIdentifier();
        if (!isExpected(id, ctx)) {
            throw new Refusal("CREATE TABLE " + printable(id.asSummaryString()) + ": fluid writes only the "
                    + "job's table, " + expectedName(ctx));
        }
        if (!op.isIgnoreIfExists()) {
            throw new Refusal("CREATE TABLE " + id.asSummaryString() + ": fluid writes IF NOT EXISTS");
        }
        options("CREATE TABLE " + id.asSummaryString(), op.getCatalogTable().getOptions(), TABLE_OPTIONS);
    }

    private static void source(CreateTableOperation op, Context ctx) throws Refusal {
        ObjectIdentifier id = op.getTableIdentifier();
        String what = "CREATE TEMPORARY TABLE " + printable(id.asSummaryString());
        if (!builtin(id, ctx) || !SOURCE_TABLES.contains(id.getObjectName())) {
            throw new Refusal(what + ": fluid writes only the Kafka source, one of "
                    + new TreeSet<>(SOURCE_TABLES));
        }
        if (!op.getCatalogTable().getPartitionKeys().isEmpty()) {
            throw new Refusal(what + ": fluid writes no PARTITIONED BY for its source");
        }
        Map<String, String> o = op.getCatalogTable().getOptions();
        if (!"kafka".equals(o.get("connector"))) {
            throw new Refusal(what + ": fluid's source is a 'kafka' table");
        }
        options(what, o, KAFKA_OPTIONS);
        String jaas = o.get(KafkaProviders.JAAS);
        if (jaas != null && !KafkaProviders.REF.matcher(jaas).matches() && !JAAS_LINE.matcher(jaas).matches()) {
            throw new Refusal(what + ": option '" + KafkaProviders.JAAS + "' is neither one ${fluidenv:NAME} "
                    + "reference nor the PLAIN or SCRAM login line fluid writes");
        }
        for (String k : new String[] {"properties.ssl.truststore.location", "properties.ssl.keystore.location"}) {
            String v = o.get(k);
            if (v != null && (v.length() > 1024 || !POD_PATH.matcher(v).matches() || v.contains("/./")
                    || v.contains("/../") || v.endsWith("/.") || v.endsWith("/.."))) {
                throw new Refusal(what + ": option '" + k + "' is not an absolute path of plain segments");
            }
        }
        try {
            KafkaProviders.check(o, ctx.allow, ctx.env);
        } catch (KafkaProviders.RefException e) {
            throw new Refusal(e.getMessage(), e.environment);
        }
    }

    private static void view(CreateViewOperation op, Context ctx) throws Refusal {
        ObjectIdentifier id = op.getViewIdentifier();
        if (!op.isTemporary() || !builtin(id, ctx) || !id.getObjectName().equals(SOURCE_VIEW)) {
            throw new Refusal("CREATE " + (op.isTemporary() ? "TEMPORARY " : "") + "VIEW "
                    + printable(id.asSummaryString()) + ": fluid writes only the temporary view " + SOURCE_VIEW);
        }
    }

    private static void insert(SinkModifyOperation op, Context ctx) throws Refusal {
        ObjectIdentifier target = op.getContextResolvedTable().getIdentifier();
        if (!isExpected(target, ctx)) {
            throw new Refusal("writes " + printable(target.asSummaryString()) + ", but the expected table is "
                    + expectedName(ctx));
        }
        if (op.isOverwrite() || !op.getStaticPartitions().isEmpty()) {
            throw new Refusal("INSERT OVERWRITE or a static PARTITION: fluid writes a plain INSERT INTO");
        }
    }

    private static void need(Map<String, String> o, String k, String v, String what) throws Refusal {
        if (!v.equals(o.get(k))) {
            throw new Refusal(what + ": option '" + k + "' must be '" + v + "' (what fluid writes)");
        }
    }

    /** Every option one of allowed's keys, with one of its values where it lists them. */
    private static void options(String what, Map<String, String> o, Map<String, Set<String>> allowed)
            throws Refusal {
        for (String k : new TreeSet<>(o.keySet())) {
            if (!allowed.containsKey(k)) {
                throw new Refusal(what + ": option '" + printable(k) + "' is not one fluid writes");
            }
            Set<String> values = allowed.get(k);
            String v = o.get(k);
            if (values != null && !values.contains(v)) {
                throw new Refusal(what + ": option '" + k + "' holds a value fluid does not write (it writes "
                        + String.join(" or ", new TreeSet<>(values)) + ")");
            }
            if (v != null && hasControl(v)) {
                throw new Refusal(what + ": option '" + k + "' holds a control character");
            }
        }
    }

    private static boolean hasControl(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    /** The kinds checkText admits, for the tests. */
    static List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (String[] k : KINDS) {
            out.add(String.join(" ", k));
        }
        return out;
    }
}
