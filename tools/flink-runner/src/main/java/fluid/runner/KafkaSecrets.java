package fluid.runner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the Kafka credentials of a fluid-generated source table from the
 * pod's environment, at submit time (fluid-sqlgen(1), ENVIRONMENT REFERENCES).
 *
 * <p>fluid-sqlgen writes no credential: where one goes it writes the reference
 * {@code ${fluid:env:NAME}}, NAME a variable of the pod that
 * deployment.secretRefs feeds. The runner replaces it after Flink has parsed
 * the statement, in the parsed table's options, so the value is never in SQL
 * text (nor in a parser's error, a log line of the statement or the ConfigMap).
 *
 * <p>What a script can make the runner read, and where the value goes, is
 * bounded here, not by trusting the script:
 * <ul>
 * <li>only a table whose 'connector' is 'kafka' is resolved;
 * <li>only the options in {@link #RESOLVED}, which Kafka reads as credentials
 * (its PASSWORD-typed settings, printed as [hidden] in its own logs): a
 * reference in any other option, where a value could be echoed or sent
 * elsewhere (the topic, the bootstrap servers, a format's registry URL), is
 * refused;
 * <li>only a variable with a plain name ({@code [A-Za-z_][A-Za-z0-9_]*}); an
 * unset or empty variable, or a value with a control character, is refused;
 * <li>in the JAAS line, a reference inside a quoted string has its value
 * escaped as JAAS reads it, so that a password cannot end the string and add
 * options of its own; a reference outside quotes must be the whole line.
 * </ul>
 * Errors name the option and the variable, never a value.
 */
final class KafkaSecrets {
    private KafkaSecrets() {}

    /** The reference: {@code ${fluid:env:NAME}}. */
    static final Pattern REF = Pattern.compile("\\$\\{fluid:env:([^}]*)\\}");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static final String JAAS = "properties.sasl.jaas.config";

    /** The options whose references are resolved. */
    static final Set<String> RESOLVED = Set.of(JAAS, "properties.ssl.truststore.password",
            "properties.ssl.keystore.password", "properties.ssl.key.password");

    /** A reference the runner will not resolve, or a variable it cannot use. */
    static final class RefException extends Exception {
        final boolean environment;

        RefException(String msg, boolean environment) {
            super(msg);
            this.environment = environment;
        }
    }

    /** Whether any option holds a reference (resolve() has work to do). */
    static boolean hasReferences(Map<String, String> options) {
        for (String v : options.values()) {
            if (v != null && v.contains("${fluid:env:")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The options with every reference replaced by the value of its variable in
     * env (System::getenv in the pod). Throws for a reference outside the
     * Kafka table's credential options, a name that is not one, an unset
     * variable or an unusable value.
     */
    static Map<String, String> resolve(Map<String, String> options, Function<String, String> env)
            throws RefException {
        Map<String, String> out = new LinkedHashMap<>(options);
        boolean kafka = "kafka".equals(options.get("connector"));
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            String v = e.getValue();
            if (v == null || !v.contains("${fluid:env:")) {
                continue;
            }
            if (!kafka || !RESOLVED.contains(key)) {
                throw new RefException("option '" + key + "' holds a ${fluid:env:...} reference, which "
                        + "the runner resolves only in " + String.join(", ", sorted(RESOLVED))
                        + " of a 'kafka' table", false);
            }
            out.put(key, key.equals(JAAS) ? jaas(v, env) : whole(key, v, env));
        }
        return out;
    }

    /** An option that must be exactly one reference. */
    private static String whole(String key, String v, Function<String, String> env) throws RefException {
        Matcher m = REF.matcher(v);
        if (!m.matches()) {
            throw new RefException("option '" + key + "' must be exactly one ${fluid:env:NAME} reference", false);
        }
        return value(key, m.group(1), env);
    }

    /**
     * The JAAS line: one reference that is all of it, or references each of
     * which is the whole of a double-quoted string.
     */
    private static String jaas(String v, Function<String, String> env) throws RefException {
        Matcher m = REF.matcher(v);
        if (m.matches()) {
            return value(JAAS, m.group(1), env);
        }
        StringBuilder sb = new StringBuilder();
        int at = 0;
        while (m.find()) {
            if (m.start() == 0 || v.charAt(m.start() - 1) != '"' || m.end() >= v.length()
                    || v.charAt(m.end()) != '"' || !quotedAt(v, m.start() - 1)) {
                throw new RefException("option '" + JAAS + "': a ${fluid:env:NAME} reference must be all of "
                        + "the line or all of a quoted string in it", false);
            }
            sb.append(v, at, m.start());
            sb.append(escapeJaas(value(JAAS, m.group(1), env)));
            at = m.end();
        }
        sb.append(v.substring(at));
        return sb.toString();
    }

    /** Whether the '"' at q opens a JAAS string (an even number of quotes before it, none escaped). */
    private static boolean quotedAt(String v, int q) {
        int quotes = 0;
        for (int i = 0; i < q; i++) {
            char c = v.charAt(i);
            if (c == '\\') {
                return false;
            }
            if (c == '"') {
                quotes++;
            }
        }
        return quotes % 2 == 0;
    }

    /** A value inside a JAAS quoted string: backslash and quote escaped. */
    static String escapeJaas(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String value(String key, String name, Function<String, String> env) throws RefException {
        if (!NAME.matcher(name).matches() || name.length() > 128) {
            throw new RefException("option '" + key + "': a ${fluid:env:...} reference must name an "
                    + "environment variable (letters, digits and '_')", false);
        }
        String v = env.apply(name);
        if (v == null || v.isEmpty()) {
            throw new RefException("option '" + key + "' names the environment variable " + name
                    + ", which is not set in the pod (it comes from a Secret in deployment.secretRefs)", true);
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new RefException("option '" + key + "': the value of " + name
                        + " holds a control character (a line break?); it is not used", true);
            }
        }
        return v;
    }

    private static java.util.List<String> sorted(Set<String> s) {
        java.util.List<String> l = new java.util.ArrayList<>(s);
        java.util.Collections.sort(l);
        return l;
    }
}
