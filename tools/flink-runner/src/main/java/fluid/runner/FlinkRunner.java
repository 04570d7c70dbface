// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.SinkModifyOperation;
import org.apache.flink.table.operations.command.SetOperation;
import org.apache.flink.table.operations.ddl.CreateTableOperation;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.flink.FlinkCatalog;

/**
 * Runs one fluid-generated Flink SQL script against the table it must write.
 *
 * <pre>
 * fluid-flink-runner [--validate-only] [--await] [--set KEY=VALUE]... [--env-allow NAME[,NAME...]]
 *     SCRIPT TABLE_JSON
 * </pre>
 *
 * <p>In order: splits SCRIPT into statements and refuses, before anything
 * runs, a statement of a kind fluid never writes or a variable outside
 * --env-allow (ScriptPolicy); then runs them one by one, each judged again as
 * Flink parsed it (SET is
 * applied to the table configuration; CREATE CATALOG, CREATE DATABASE and
 * the source's CREATE TEMPORARY TABLE run as they are). Before the script's
 * CREATE TABLE of the expected table (TABLE_JSON: namespace, name, columns)
 * runs, an existing table's schema is compared with the expected one (names,
 * order, types, nullability, recursively) and a mismatch is refused. A missing
 * table is created by the runner from TABLE_JSON, with the DDL's partitioning
 * and properties (Flink's DDL would lose NOT NULL inside nullable ROWs: see
 * IcebergSchema), and compared too. Every INSERT must write that table. The
 * INSERTs are EXPLAINed, and, unless --validate-only, submitted as one job.
 * --await waits for the job to end (for a local MiniCluster; in a session or
 * application cluster the job outlives the runner).
 *
 * <p>Exit status: 0 done; 1 the job failed or the runner could not run;
 * 2 usage or unreadable input; 3 the existing table does not match;
 * 4 Flink or the runner's allowlist (ScriptPolicy) refused a statement (parse,
 * validation, planning; a kind or option fluid never writes), also when its
 * planner throws an Error such as Calcite's AssertionError rather than an
 * exception. A VirtualMachineError (OutOfMemoryError, StackOverflowError) is
 * reported and rethrown, not turned into a status.
 */
public final class FlinkRunner {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int MISMATCH = 3;
    public static final int REJECTED = 4;

    private static final String USAGE_TEXT =
            "usage: fluid-flink-runner [--validate-only] [--await] [--set KEY=VALUE]... "
            + "[--env-allow NAME[,NAME...]] SCRIPT TABLE_JSON";

    private final PrintStream out;
    private final PrintStream err;
    private final Function<Configuration, TableEnvironment> environments;
    /** The VirtualMachineError refuse reported with its statement, so runArgs does not repeat it. */
    private VirtualMachineError reported;

    private FlinkRunner(PrintStream out, PrintStream err, Function<Configuration, TableEnvironment> environments) {
        this.out = out;
        this.err = err;
        this.environments = environments;
    }

    public static void main(String[] args) {
        boolean inCluster = inApplicationCluster();
        int rc = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        if (inCluster) {
            // Application mode (the Kubernetes operator): main runs inside the
            // JobManager, which must not exit. A failure fails the application.
            if (rc != OK) {
                throw new IllegalStateException("fluid-flink-runner: exit status " + rc + " (see above)");
            }
            return;
        }
        // A command line: halt rather than exit, as a local MiniCluster or an
        // open catalog may leave non-daemon threads behind.
        Runtime.getRuntime().halt(rc);
    }

    /** True when main runs in a Flink application cluster (execution.target "embedded"). */
    static boolean inApplicationCluster() {
        try {
            return "embedded".equals(StreamExecutionEnvironment.getExecutionEnvironment()
                    .getConfiguration().get(DeploymentOptions.TARGET));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Runs the runner in this JVM and returns its exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, conf -> TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build()));
    }

    /**
     * As run, with the TableEnvironment built by environments from the
     * configuration: the seam through which the tests put a fake in Flink's place.
     */
    static int run(String[] args, PrintStream out, PrintStream err,
            Function<Configuration, TableEnvironment> environments) {
        return new FlinkRunner(out, err, environments).runArgs(args);
    }

    static final class Failure extends Exception {
        final int status;

        Failure(int status, String msg) {
            super(msg);
            this.status = status;
        }
    }

    private int runArgs(String[] args) {
        boolean validateOnly = false;
        boolean await = false;
        Configuration conf = new Configuration();
        Set<String> allow = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--validate-only")) {
                validateOnly = true;
            } else if (a.equals("--await")) {
                await = true;
            } else if (a.equals("--set")) {
                if (i + 1 >= args.length || args[i + 1].indexOf('=') <= 0) {
                    return usage("--set needs KEY=VALUE");
                }
                String kv = args[++i];
                int eq = kv.indexOf('=');
                conf.setString(kv.substring(0, eq), kv.substring(eq + 1));
            } else if (a.equals("--env-allow")) {
                // The variables the plan binds (spec.job.args, under the plan's
                // digest): the only ones the script may make the pod read.
                if (i + 1 >= args.length) {
                    return usage("--env-allow needs NAME[,NAME...]");
                }
                if (allow != null) {
                    return usage("--env-allow is given once, with every name");
                }
                try {
                    allow = ScriptPolicy.parseEnvAllow(args[++i]);
                } catch (IllegalArgumentException e) {
                    return usage(e.getMessage());
                }
            } else if (a.equals("-h") || a.equals("--help")) {
                out.println(USAGE_TEXT);
                return OK;
            } else if (a.startsWith("-") && !a.equals("-")) {
                return usage("unknown option '" + a + "'");
            } else {
                files.add(a);
            }
        }
        if (files.size() != 2) {
            return usage("expects SCRIPT and TABLE_JSON");
        }
        try {
            return execute(Path.of(files.get(0)), Path.of(files.get(1)), conf, allow == null ? Set.of() : allow,
                    validateOnly, await);
        } catch (Failure f) {
            err.println("fluid-flink-runner: " + f.getMessage());
            return f.status;
        } catch (VirtualMachineError e) {
            // Rethrown, not a status: see refuse.
            if (e != reported) {
                err.println("fluid-flink-runner: " + oneLine(describe(e)));
                err.flush();
            }
            throw e;
        } catch (Throwable t) {
            // Outside any statement (creating the environment, closing the
            // catalogs): the runner could not run. Caught so that a JVM that
            // runs several jobs (the live lane's harness) survives it.
            err.println("fluid-flink-runner: " + oneLine(describe(t)));
            return FAILED;
        }
    }

    private int usage(String why) {
        err.println("fluid-flink-runner: " + why);
        err.println(USAGE_TEXT);
        return USAGE;
    }

    private int execute(Path scriptFile, Path tableFile, Configuration conf, Set<String> allow,
            boolean validateOnly, boolean await) throws Failure {
        String script;
        ExpectedTable expected;
        List<Statements.Statement> statements;
        try {
            script = Files.readString(scriptFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Failure(USAGE, scriptFile + ": " + e.getMessage());
        }
        try {
            expected = ExpectedTable.read(tableFile);
        } catch (IOException e) {
            throw new Failure(USAGE, tableFile + ": " + e.getMessage());
        } catch (ExpectedTable.FormatException e) {
            throw new Failure(USAGE, tableFile + ": " + e.getMessage());
        }
        try {
            statements = Statements.splitWithLines(script);
        } catch (Statements.SyntaxException e) {
            throw new Failure(USAGE, scriptFile + ": " + e.getMessage());
        }
        if (statements.isEmpty()) {
            throw new Failure(USAGE, scriptFile + ": no statements");
        }
        // Before the environment exists: nothing has run when this refuses.
        try {
            ScriptPolicy.checkText(statements, allow);
        } catch (ScriptPolicy.Refusal r) {
            throw new Failure(REJECTED, scriptFile + ": " + r.getMessage());
        }

        TableEnvironment tEnv = environments.apply(conf);
        try {
            return execute(tEnv, scriptFile, expected, statements, allow, validateOnly, await);
        } finally {
            closeCatalogs(tEnv);
        }
    }

    /** Closes the catalogs the script created (their HTTP clients and FileIO). */
    private static void closeCatalogs(TableEnvironment tEnv) {
        for (String name : tEnv.listCatalogs()) {
            try {
                tEnv.getCatalog(name).ifPresent(Catalog::close);
            } catch (RuntimeException e) {
                // closing is best effort
            }
        }
    }

    private int execute(TableEnvironment tEnv, Path scriptFile, ExpectedTable expected,
            List<Statements.Statement> statements, Set<String> allow, boolean validateOnly, boolean await)
            throws Failure {
        TableEnvironmentInternal internal = (TableEnvironmentInternal) tEnv;
        // No USE is run, so the temporary source stays in the built-in catalog.
        ScriptPolicy.Context ctx = new ScriptPolicy.Context(expected, allow, System::getenv,
                tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase());

        boolean checked = false;
        List<String> inserts = new ArrayList<>();
        List<String> insertWhere = new ArrayList<>();
        List<Integer> insertNo = new ArrayList<>();
        List<ModifyOperation> modifies = new ArrayList<>();
        int no = 0;
        for (Statements.Statement st : statements) {
            no++;
            String stmt = st.text;
            String where = ScriptPolicy.where(no, st);
            Operation op = parse(internal, stmt, where);
            // Only what fluid writes, as Flink parsed it (the Kafka client
            // resolves the credentials itself: only as fluid configures it).
            allowed(op, stmt, where, ctx);
            try {
                if (op instanceof SetOperation) {
                    SetOperation set = (SetOperation) op;
                    tEnv.getConfig().set(set.getKey().get(), set.getValue().get());
                    continue;
                }
                if (op instanceof CreateTableOperation && !((CreateTableOperation) op).isTemporary()
                        && isExpected(((CreateTableOperation) op).getTableIdentifier(), expected)) {
                    // allowed(): the only non-temporary table is the expected one.
                    ObjectIdentifier id = ((CreateTableOperation) op).getTableIdentifier();
                    boolean existed = exists(tEnv, id);
                    if (existed) {
                        compare(tEnv, id, expected, "the existing table");
                        out.println("fluid-flink-runner: " + id.asSummaryString()
                                + " exists and its schema matches");
                    }
                    if (!existed) {
                        create(tEnv, id, expected, (CreateTableOperation) op);
                    }
                    // IF NOT EXISTS: the table is there now; Flink still parses
                    // and validates the statement as it is written.
                    tEnv.executeSql(stmt);
                    if (!existed) {
                        compare(tEnv, id, expected, "the table the runner created");
                        out.println("fluid-flink-runner: created " + id.asSummaryString());
                    }
                    checked = true;
                    continue;
                }
                if (op instanceof SinkModifyOperation) {
                    // allowed(): an INSERT INTO the expected table.
                    ObjectIdentifier target = ((SinkModifyOperation) op).getContextResolvedTable().getIdentifier();
                    if (!checked) {
                        if (!exists(tEnv, target)) {
                            throw new Failure(REJECTED, where + ": " + target.asSummaryString()
                                    + " does not exist");
                        }
                        compare(tEnv, target, expected, "the existing table");
                        checked = true;
                    }
                    modifies.add((ModifyOperation) op);
                    inserts.add(stmt);
                    insertWhere.add(where);
                    insertNo.add(no);
                    continue;
                }
                tEnv.executeSql(stmt).await();
            } catch (Failure f) {
                throw f;
            } catch (Throwable t) {
                throw refuse(where, t);
            }
        }
        if (inserts.isEmpty()) {
            throw new Failure(REJECTED, scriptFile + ": no INSERT INTO " + expected.namespace + "."
                    + expected.name);
        }

        // EXPLAIN each INSERT as it is written, then the job as a whole.
        for (int i = 0; i < inserts.size(); i++) {
            String ins = inserts.get(i);
            String plan = explain(tEnv, ins, insertWhere.get(i));
            out.println("== EXPLAIN " + firstLine(ins));
            out.println(plan);
        }
        if (validateOnly) {
            out.println("fluid-flink-runner: validated " + scriptFile + " (" + inserts.size()
                    + " INSERT" + (inserts.size() == 1 ? "" : "s") + "); not submitted");
            return OK;
        }

        TableResult result;
        try {
            result = internal.executeInternal(modifies);
        } catch (Throwable t) {
            throw refuse("submitting the job (statement" + (insertNo.size() == 1 ? " " : "s ")
                    + String.join(", ", insertNo.stream().map(String::valueOf).toList()) + ")", t);
        }
        Optional<JobClient> client = result.getJobClient();
        if (client.isEmpty()) {
            throw new Failure(FAILED, "Flink returned no job for the INSERT");
        }
        out.println("fluid-flink-runner: submitted job " + client.get().getJobID());
        if (!await) {
            return OK;
        }
        try {
            JobExecutionResult r = client.get().getJobExecutionResult().get();
            out.println("fluid-flink-runner: job " + r.getJobID() + " finished");
            return OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure(FAILED, "interrupted while waiting for the job");
        } catch (ExecutionException e) {
            throw new Failure(FAILED, "job " + client.get().getJobID() + " failed: " + describe(e));
        }
    }

    /**
     * Refuses a statement fluid does not write, as Flink parsed it
     * (ScriptPolicy): exit 4 for the script, 2 for a variable the pod lacks;
     * never a value.
     */
    static void allowed(Operation op, String stmt, String where, ScriptPolicy.Context ctx) throws Failure {
        try {
            ScriptPolicy.checkOperation(op, stmt, ctx);
        } catch (ScriptPolicy.Refusal r) {
            throw new Failure(r.environment ? USAGE : REJECTED, where + ": " + r.getMessage());
        }
    }

    private String explain(TableEnvironment tEnv, String insert, String where) throws Failure {
        String stmt = insert;
        if (Statements.startsWithWords(stmt, "EXECUTE", "STATEMENT", "SET")) {
            stmt = stmt.strip().substring("EXECUTE".length()).strip();
        }
        try {
            TableResult r = tEnv.executeSql("EXPLAIN " + stmt);
            StringBuilder sb = new StringBuilder();
            try (CloseableIterator<Row> it = r.collect()) {
                while (it.hasNext()) {
                    sb.append(it.next().getField(0));
                }
            }
            return sb.toString();
        } catch (Throwable t) {
            throw refuse(where + ": EXPLAIN", t);
        }
    }

    private Operation parse(TableEnvironmentInternal tEnv, String stmt, String where) throws Failure {
        List<Operation> ops;
        try {
            ops = tEnv.getParser().parse(stmt);
        } catch (Throwable t) {
            throw refuse(where, t);
        }
        if (ops.size() != 1) {
            throw new Failure(REJECTED, where + ": expected one statement, Flink parsed " + ops.size());
        }
        return ops.get(0);
    }

    /**
     * The refusal of the statement at where for what Flink threw while parsing,
     * planning, explaining or submitting it. Flink's planner (Calcite) reports
     * some refusals as an Error, not an exception: "Conversion to relational
     * algebra failed to preserve datatypes" is an AssertionError. Such an Error
     * is about this statement, not the JVM, so it is refused like an exception;
     * its message (Calcite's spans lines: the two row types, the plan) is put
     * on one line. A VirtualMachineError (OutOfMemoryError, StackOverflowError,
     * InternalError) is reported the same way and then rethrown: after one the
     * JVM's state is not to be trusted, and a status would let the caller (the
     * harness, the JobManager) carry on in it as if one statement had failed.
     */
    private Failure refuse(String where, Throwable t) {
        if (t instanceof VirtualMachineError) {
            err.println("fluid-flink-runner: " + where + ": " + oneLine(describe(t)));
            err.flush();
            reported = (VirtualMachineError) t;
            throw reported;
        }
        String why = describe(t);
        return new Failure(REJECTED, where + ": " + (t instanceof Error ? oneLine(why) : why));
    }

    /** s with every line break, and the blanks around it, as one space. */
    static String oneLine(String s) {
        return s.replaceAll("[ \\t]*\\R\\s*", " ").strip();
    }

    private static boolean isExpected(ObjectIdentifier id, ExpectedTable t) {
        return id.getDatabaseName().equals(t.namespace) && id.getObjectName().equals(t.name);
    }

    private static boolean exists(TableEnvironment tEnv, ObjectIdentifier id) throws Failure {
        Catalog c = tEnv.getCatalog(id.getCatalogName()).orElseThrow(
                () -> new Failure(REJECTED, "catalog " + id.getCatalogName() + " is not defined"));
        return c.tableExists(new ObjectPath(id.getDatabaseName(), id.getObjectName()));
    }

    /**
     * Creates the expected table through the Iceberg catalog with the schema of
     * TABLE_JSON (see IcebergSchema for why not through the DDL), and the
     * partitioning, location and properties that the script's CREATE TABLE
     * gives, as Iceberg's own FlinkCatalog.createTable would take them.
     */
    private static void create(TableEnvironment tEnv, ObjectIdentifier id, ExpectedTable expected,
            CreateTableOperation op) throws Failure {
        Catalog c = tEnv.getCatalog(id.getCatalogName()).orElseThrow(
                () -> new Failure(REJECTED, "catalog " + id.getCatalogName() + " is not defined"));
        if (!(c instanceof FlinkCatalog)) {
            throw new Failure(REJECTED, id.getCatalogName() + " is not an Iceberg catalog");
        }
        Schema schema;
        PartitionSpec spec;
        try {
            schema = IcebergSchema.of(expected);
            PartitionSpec.Builder pb = PartitionSpec.builderFor(schema);
            for (String key : op.getCatalogTable().getPartitionKeys()) {
                pb.identity(key);
            }
            spec = pb.build();
        } catch (RuntimeException e) {
            throw new Failure(USAGE, "the expected table: " + describe(e));
        }
        Map<String, String> props = new LinkedHashMap<>(op.getCatalogTable().getOptions());
        String location = props.remove("location");
        try {
            ((FlinkCatalog) c).catalog().createTable(
                    TableIdentifier.of(Namespace.of(id.getDatabaseName()), id.getObjectName()),
                    schema, spec, location, props);
        } catch (AlreadyExistsException e) {
            // Created meanwhile by someone else: compare() judges it.
        } catch (RuntimeException e) {
            throw new Failure(FAILED, "creating " + id.asSummaryString() + ": " + describe(e));
        }
    }

    private void compare(TableEnvironment tEnv, ObjectIdentifier id, ExpectedTable expected, String what)
            throws Failure {
        Catalog c = tEnv.getCatalog(id.getCatalogName()).orElseThrow();
        if (!(c instanceof FlinkCatalog)) {
            throw new Failure(REJECTED, id.getCatalogName() + " is not an Iceberg catalog");
        }
        Schema schema;
        try {
            schema = ((FlinkCatalog) c).catalog()
                    .loadTable(TableIdentifier.of(Namespace.of(id.getDatabaseName()), id.getObjectName()))
                    .schema();
        } catch (RuntimeException e) {
            throw new Failure(FAILED, "loading " + id.asSummaryString() + ": " + describe(e));
        }
        List<String> diffs = SchemaCheck.compare(expected, schema);
        if (!diffs.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            sb.append(id.asSummaryString()).append(": ").append(what)
                    .append(" does not match the job's table; refusing to write it:");
            for (String d : diffs) {
                sb.append("\n  ").append(d);
            }
            throw new Failure(MISMATCH, sb.toString());
        }
    }

    private static String firstLine(String stmt) {
        return ScriptPolicy.firstLine(stmt);
    }

    /** The exception and its causes, one message each, without repeats. */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        String last = null;
        int depth = 0;
        for (Throwable t = e; t != null && depth < 12; t = t.getCause(), depth++) {
            if (t instanceof ExecutionException && t.getCause() != null) {
                continue;
            }
            String m = t.getMessage();
            String line = t.getClass().getName() + (m == null ? "" : ": " + m);
            if (m != null && last != null && last.contains(m)) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append("\n  caused by: ");
            }
            sb.append(line);
            last = line;
            if (t.getCause() == t) {
                break;
            }
        }
        return sb.toString();
    }
}
