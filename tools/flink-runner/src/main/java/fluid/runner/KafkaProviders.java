// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounds what a script's Kafka table can make the Kafka client read from the
 * pod (fluid-sqlgen(1), ENVIRONMENT REFERENCES).
 *
 * <p>fluid-sqlgen writes no credential: where one goes it writes
 * {@code ${fluidenv:NAME}} and configures, in the same table, Kafka's
 * EnvVarConfigProvider under the name {@code fluidenv} with an allowlist of
 * exactly the variables named. The Kafka client resolves the references itself
 * when it builds its configuration, in each pod (the enumerator's admin client
 * on the JobManager, each reader's consumer on its TaskManager), so no value
 * is ever in the table's options, the JobGraph that HA persists, the SQL, a
 * log or an error. The runner resolves nothing; it checks, before any
 * statement runs, that a table sets the providers exactly as fluid writes
 * them, so a script cannot make a client read another variable or a file:
 * <ul>
 * <li>'properties.config.providers' and any 'properties.config.providers.*'
 * option only in a 'kafka' table, and then exactly the three fluid writes:
 * the name {@code fluidenv}, its class EnvVarConfigProvider, and
 * param.allowlist.pattern {@code ^(A|B)$} of the sorted variables the
 * references name, every one of them in the runner's --env-allow (the
 * variables the plan binds, never the ones the script names);
 * <li>a {@code ${...}} in a Kafka table's value only in {@link #REFERENCED},
 * Kafka's PASSWORD-typed settings (printed as [hidden] in its own logs): each
 * a whole {@code ${fluidenv:NAME}}, or in the JAAS line the whole line or
 * the whole of a double-quoted string in it;
 * <li>each variable set and non-empty in the runner's pod, without a control
 * character, and, inside a JAAS string, without '"' or '\' (the provider puts
 * the value in as it is, so such a value could end the string and add JAAS
 * options: store the whole line in a variable, jaasConfigEnv, instead).
 * </ul>
 * Errors name the option and the variable, never a value.
 */
final class KafkaProviders {
    private KafkaProviders() {}

    static final String NAME = "fluidenv";
    static final String CLASS = "org.apache.kafka.common.config.provider.EnvVarConfigProvider";
    static final String PROVIDERS = "properties.config.providers";
    static final String PROVIDER_CLASS = PROVIDERS + "." + NAME + ".class";
    static final String ALLOWLIST = PROVIDERS + "." + NAME + ".param.allowlist.pattern";

    /** The reference: {@code ${fluidenv:NAME}}. */
    static final Pattern REF = Pattern.compile("\\$\\{" + NAME + ":([A-Za-z_][A-Za-z0-9_]{0,127})\\}");

    static final String JAAS = "properties.sasl.jaas.config";

    /** The options that may hold a reference. */
    static final java.util.Set<String> REFERENCED = java.util.Set.of(JAAS, "properties.ssl.truststore.password",
            "properties.ssl.keystore.password", "properties.ssl.key.password");

    /** A table the runner will not run, or a variable it cannot find. */
    static final class RefException extends Exception {
        final boolean environment;

        RefException(String msg, boolean environment) {
            super(msg);
            this.environment = environment;
        }
    }

    private static boolean providerKey(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.equals(PROVIDERS) || k.startsWith(PROVIDERS + ".");
    }

    /**
     * Checks a table's options (see the class comment); allow is --env-allow,
     * env is System::getenv in the pod. Returns whether the table uses the
     * provider.
     */
    static boolean check(Map<String, String> options, java.util.Set<String> allow, Function<String, String> env)
            throws RefException {
        boolean kafka = "kafka".equals(options.get("connector"));
        boolean providers = false;
        for (String key : options.keySet()) {
            if (providerKey(key)) {
                providers = true;
                if (!kafka) {
                    throw new RefException("option '" + key + "': Kafka config providers are set only by "
                            + "fluid, in a 'kafka' table", false);
                }
            }
        }
        if (!kafka) {
            return false;
        }
        TreeSet<String> names = new TreeSet<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            String v = e.getValue();
            if (v == null || !v.contains("${") || providerKey(key)) {
                continue;
            }
            if (!REFERENCED.contains(key)) {
                throw new RefException("option '" + key + "' holds a ${...} reference, which a 'kafka' table "
                        + "may hold only in " + String.join(", ", new TreeSet<>(REFERENCED)), false);
            }
            if (key.equals(JAAS)) {
                jaas(v, allow, env, names);
            } else {
                Matcher m = REF.matcher(v);
                if (!m.matches()) {
                    throw new RefException("option '" + key + "' must be exactly one ${" + NAME
                            + ":NAME} reference", false);
                }
                names.add(value(key, m.group(1), allow, env, false));
            }
        }
        if (names.isEmpty() && !providers) {
            return false;
        }
        if (names.isEmpty()) {
            throw new RefException("option '" + PROVIDERS + "' is set but no option references a variable",
                    false);
        }
        String pattern = "^(" + String.join("|", names) + ")$";
        int n = 0;
        for (String key : options.keySet()) {
            if (providerKey(key)) {
                n++;
            }
        }
        if (n != 3 || !NAME.equals(options.get(PROVIDERS)) || !CLASS.equals(options.get(PROVIDER_CLASS))
                || !pattern.equals(options.get(ALLOWLIST))) {
            throw new RefException("the options " + PROVIDERS + ".* must be exactly what fluid-sqlgen "
                    + "writes: '" + PROVIDERS + "' = '" + NAME + "', '" + PROVIDER_CLASS + "' = '" + CLASS
                    + "' and '" + ALLOWLIST + "' = '" + pattern + "' (the variables referenced)", false);
        }
        return true;
    }

    /**
     * The JAAS line: one reference that is all of it, or references each of
     * which is the whole of a double-quoted string.
     */
    private static void jaas(String v, java.util.Set<String> allow, Function<String, String> env,
            TreeSet<String> names) throws RefException {
        Matcher m = REF.matcher(v);
        if (m.matches()) {
            names.add(value(JAAS, m.group(1), allow, env, false));
            return;
        }
        while (m.find()) {
            if (m.start() == 0 || v.charAt(m.start() - 1) != '"' || m.end() >= v.length()
                    || v.charAt(m.end()) != '"' || !quotedAt(v, m.start() - 1)) {
                throw new RefException("option '" + JAAS + "': a ${" + NAME + ":NAME} reference must be all "
                        + "of the line or all of a quoted string in it", false);
            }
            names.add(value(JAAS, m.group(1), allow, env, true));
        }
        if (REF.matcher(v).replaceAll("").contains("${")) {
            throw new RefException("option '" + JAAS + "' holds a ${...} that is not a ${" + NAME
                    + ":NAME} reference", false);
        }
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

    /**
     * name, once it is known allowed (--env-allow; not even looked up
     * otherwise) and its variable usable in this pod (never its value in an
     * error).
     */
    private static String value(String key, String name, java.util.Set<String> allow,
            Function<String, String> env, boolean quoted) throws RefException {
        if (!allow.contains(name)) {
            throw new RefException("option '" + key + "' names the environment variable " + name
                    + ", which --env-allow " + ScriptPolicy.allowText(allow) + " does not allow", false);
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
            if (quoted && (c == '"' || c == '\\')) {
                throw new RefException("option '" + key + "': the value of " + name + " holds '\"' or '\\', "
                        + "which Kafka would put into the JAAS string as it is; keep the whole line in a "
                        + "variable instead (jaasConfigEnv)", true);
            }
        }
        return name;
    }
}
