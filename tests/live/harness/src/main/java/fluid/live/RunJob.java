// SPDX-License-Identifier: Apache-2.0
package fluid.live;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.RestoredCheckpointStats;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One runner invocation against the shared MiniCluster, watching the Iceberg
 * table through the REST catalog. Optionally starts a command once the job
 * runs (--during, e.g. a paced producer), kills the task manager once K rows
 * are committed (a fresh one is started; the job must restore from a
 * checkpoint), and, once the expected rows are committed, stops the job with
 * a savepoint so that the runner's --await returns with the job FINISHED.
 *
 * State: with --state-conf BUILD.k8s.json the job gets the flinkConfiguration
 * that fluid-k8s rendered for its FlinkDeployment (s3:// checkpoint and
 * savepoint locations, checkpointing mode, retention), and its savepoints go
 * to that execution.checkpointing.savepoint-dir; without it, local directories of this run.
 * --stop-after-rows K stops the job with a savepoint as soon as K rows are
 * committed (--savepoint-out writes its path), --from-savepoint starts one
 * from such a path; --expect-restore-prefix P fails unless the job restored
 * from a checkpoint or savepoint whose external path starts with P.
 */
final class RunJob {
    private RunJob() {}

    private static int runs = 0;

    static String run(Cluster cluster, List<String> args, List<String> globalSets, Path stateRoot,
            Map<String, Process> spawned) throws Exception {
        String script = null;
        String table = null;
        long expectRows = -1;
        long killAfter = -1;
        boolean expectFailure = false;
        boolean settle = false;
        String expectError = null;
        int expectExit = 0;
        long timeoutS = 300;
        List<String> sets = new ArrayList<>(globalSets);
        List<String> during = null;
        Path stateConf = null;
        long stopAfter = -1;
        Path savepointOut = null;
        String fromSavepoint = null;
        String restorePrefix = null;
        String whileRunning = null;
        Path events = null;
        String envAllow = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--script": script = args.get(++i); break;
                case "--table": table = args.get(++i); break;
                case "--expect-rows": expectRows = rowCount(args.get(++i)); break;
                case "--kill-tm-after-rows": killAfter = Long.parseLong(args.get(++i)); break;
                case "--expect-failure": expectFailure = true; break;
                case "--settle": settle = true; break;
                case "--expect-error": expectError = args.get(++i); break;
                case "--expect-exit": expectExit = Integer.parseInt(args.get(++i)); break;
                case "--timeout-s": timeoutS = Long.parseLong(args.get(++i)); break;
                case "--set": sets.add(args.get(++i)); break;
                case "--env-allow": envAllow = args.get(++i); break;
                case "--state-conf": stateConf = Path.of(args.get(++i)); break;
                case "--stop-after-rows": stopAfter = Long.parseLong(args.get(++i)); break;
                case "--savepoint-out": savepointOut = Path.of(args.get(++i)); break;
                case "--from-savepoint": fromSavepoint = args.get(++i); break;
                case "--expect-restore-prefix": restorePrefix = args.get(++i); break;
                case "--while-running": whileRunning = args.get(++i); break;
                case "--events": events = Path.of(args.get(++i)); break;
                case "--during":
                    during = new ArrayList<>(args.subList(i + 1, args.size()));
                    i = args.size();
                    break;
                default:
                    return "unknown run argument " + a;
            }
        }
        if (script == null || table == null) {
            return "run needs --script and --table";
        }
        fluid.runner.ExpectedTable expected = fluid.runner.ExpectedTable.read(Path.of(table));
        TableIdentifier tid = TableIdentifier.of(Namespace.of(expected.namespace), expected.name);
        Path stateDir = stateRoot.resolve(expected.name + "-" + (++runs));
        Files.createDirectories(stateDir);

        Set<JobID> before = new HashSet<>();
        for (JobStatusMessage m : cluster.mini.listJobs().get(30, TimeUnit.SECONDS)) {
            before.add(m.getJobId());
            if (!m.getJobState().isGloballyTerminalState()) {
                return "job " + m.getJobId() + " of an earlier step is still " + m.getJobState();
            }
        }

        Process whileProc = null;
        if (whileRunning != null) {
            whileProc = spawned.get(whileRunning);
            if (whileProc == null) {
                return "no process spawned as " + whileRunning;
            }
        }
        if (fromSavepoint != null && fromSavepoint.startsWith("@")) {
            fromSavepoint = Files.readString(Path.of(fromSavepoint.substring(1))).strip();
        }
        // Later --set win: local state first, then the rendered configuration,
        // then the lane's (the 2 s checkpoint interval), then this run's.
        List<String> conf = new ArrayList<>(List.of(
                "execution.target=remote",
                "rest.address=127.0.0.1",
                "rest.port=" + cluster.restPort,
                "execution.checkpointing.dir=file://" + stateDir + "/checkpoints",
                "execution.checkpointing.savepoint-dir=file://" + stateDir + "/savepoints"));
        if (stateConf != null) {
            conf.addAll(renderedState(stateConf));
        }
        conf.addAll(sets);
        if (fromSavepoint != null) {
            conf.add("execution.savepoint.path=" + fromSavepoint);
        }
        String savepointDir = setting(conf, "execution.checkpointing.savepoint-dir");
        if (stateConf != null) {
            say(System.nanoTime(), "state: checkpoints " + setting(conf, "execution.checkpointing.dir")
                    + ", savepoints " + savepointDir + ", interval "
                    + setting(conf, "execution.checkpointing.interval") + ", mode "
                    + setting(conf, "execution.checkpointing.mode") + ", retention "
                    + setting(conf, "execution.checkpointing.externalized-checkpoint-retention")
                    + (fromSavepoint != null ? "; starting from savepoint " + fromSavepoint : ""));
        }
        List<String> ra = new ArrayList<>(List.of("--await"));
        for (String s : conf) {
            ra.add("--set");
            ra.add(s);
        }
        // The variables the plan binds, as fluid renders them into spec.job.args.
        if (envAllow != null) {
            ra.add("--env-allow");
            ra.add(envAllow);
        }
        ra.add(script);
        ra.add(table);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new Tee(new PlanFilter(System.out), captured), true,
                StandardCharsets.UTF_8);
        AtomicInteger runnerRc = new AtomicInteger(Integer.MIN_VALUE);
        Thread runner = new Thread(() -> runnerRc.set(
                fluid.runner.FlinkRunner.run(ra.toArray(new String[0]), tee, tee)), "runner");
        runner.setDaemon(true);
        long t0 = System.nanoTime();
        runner.start();

        long deadline = t0 + TimeUnit.SECONDS.toNanos(timeoutS);
        boolean killed = false;
        long rowsAtKill = -1;
        boolean stopped = false;
        JobID job = null;
        long lastRows = Long.MIN_VALUE;
        int stopTries = 0;
        String failure = null;
        Process duringProc = null;
        long lastChange = System.nanoTime();
        long checkpointsAtChange = -1;
        boolean settled = false;
        String savepoint = null;
        boolean runningNoted = false;
        while (runner.isAlive()) {
            if (System.nanoTime() > deadline) {
                failure = "timed out after " + timeoutS + " s (committed rows: " + lastRows + ")";
                break;
            }
            runner.join(400);
            if (job == null) {
                for (JobStatusMessage m : cluster.mini.listJobs().get(30, TimeUnit.SECONDS)) {
                    if (!before.contains(m.getJobId())) {
                        job = m.getJobId();
                        say(t0, "job " + job + " submitted");
                    }
                }
                continue;
            }
            JobStatus st;
            try {
                st = cluster.mini.getJobStatus(job).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                continue;
            }
            if (!runningNoted && st == JobStatus.RUNNING && allRunning(cluster, job)) {
                runningNoted = true;
                event(events, "running", t0, "every task running");
            }
            if (during != null && duringProc == null && st == JobStatus.RUNNING && allRunning(cluster, job)) {
                say(t0, "job running; starting: " + String.join(" ", during));
                duringProc = new ProcessBuilder(during).inheritIO().start();
            }
            if (duringProc != null && !duringProc.isAlive() && duringProc.exitValue() != 0) {
                failure = "the command run during the job failed (exit " + duringProc.exitValue() + ")";
                break;
            }
            long rows = cluster.committedRows(tid);
            long checkpoints = completedCheckpoints(cluster, job);
            if (rows != lastRows) {
                say(t0, "committed rows: " + rows + " (job " + st + ")");
                lastRows = rows;
                lastChange = System.nanoTime();
                checkpointsAtChange = checkpoints;
            }
            if (expectFailure) {
                continue;
            }
            if (killAfter >= 0 && !killed && st == JobStatus.RUNNING && rows >= killAfter) {
                if (expectRows >= 0 && rows >= expectRows) {
                    failure = "every row was committed before the task manager could be killed";
                    break;
                }
                int tm = cluster.liveTaskManager;
                say(t0, "killing task manager " + tm + " with " + rows + " of " + expectRows
                        + " rows committed");
                cluster.mini.terminateTaskManager(tm).get(60, TimeUnit.SECONDS);
                cluster.mini.startTaskManager();
                cluster.liveTaskManager = tm + 1;
                say(t0, "started task manager " + (tm + 1));
                killed = true;
                rowsAtKill = rows;
                continue;
            }
            if (expectRows >= 0 && rows > expectRows) {
                failure = "more rows committed than expected: " + rows + " > " + expectRows;
                break;
            }
            // --stop-after-rows: a savepoint midway, while the producer goes on.
            if (stopAfter >= 0 && !stopped && rows >= stopAfter && st == JobStatus.RUNNING
                    && allRunning(cluster, job)) {
                if (whileProc != null && !whileProc.isAlive()) {
                    failure = whileRunning + " ended before the job was stopped (" + rows
                            + " rows committed): nothing would be produced during the upgrade";
                    break;
                }
                try {
                    event(events, "stopping", t0, rows + " rows committed");
                    savepoint = cluster.mini.stopWithSavepoint(job, savepointDir, false,
                            SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
                    event(events, "stopped", t0, "savepoint " + savepoint);
                    say(t0, rows + " rows committed; stopped the job with savepoint " + savepoint
                            + (whileProc != null ? " (" + whileRunning + " still running)" : ""));
                    stopped = true;
                } catch (Exception e) {
                    stopTries++;
                    say(t0, "stop-with-savepoint failed (" + stopTries + "): " + rootCause(e));
                    if (stopTries >= 5) {
                        failure = "could not stop the job with a savepoint";
                        break;
                    }
                }
                continue;
            }
            if (stopAfter >= 0) {
                continue;
            }
            boolean producerDone = duringProc == null ? during == null : !duringProc.isAlive();
            // --settle: the committed rows stopped changing (20 s and 3 checkpoints) short of
            // the expected count; stop anyway and leave the judgement to the next step.
            if (settle && !settled && expectRows >= 0 && rows < expectRows && producerDone
                    && st == JobStatus.RUNNING && checkpointsAtChange >= 0
                    && checkpoints - checkpointsAtChange >= 3
                    && System.nanoTime() - lastChange > TimeUnit.SECONDS.toNanos(20)) {
                say(t0, "committed rows settled at " + rows + " of " + expectRows
                        + " expected (no change over " + (checkpoints - checkpointsAtChange)
                        + " checkpoints); stopping the job, the next step judges the rows");
                settled = true;
            }
            boolean ready = expectRows >= 0 && (rows == expectRows || settled) && (killAfter < 0 || killed)
                    && producerDone;
            if (ready && !stopped && st == JobStatus.RUNNING && allRunning(cluster, job)) {
                try {
                    String sp = cluster.mini.stopWithSavepoint(job, savepointDir, false,
                            SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
                    say(t0, "all rows committed; stopped the job with savepoint " + sp);
                    stopped = true;
                } catch (Exception e) {
                    stopTries++;
                    say(t0, "stop-with-savepoint failed (" + stopTries + "): " + rootCause(e));
                    if (stopTries >= 5) {
                        failure = "could not stop the job with a savepoint";
                        break;
                    }
                }
            }
        }
        if (failure != null) {
            if (job != null) {
                try {
                    cluster.mini.cancelJob(job).get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    say(t0, "cancel failed: " + rootCause(e));
                }
            }
            runner.join(60_000);
        }
        if (duringProc != null) {
            if (!duringProc.waitFor(60, TimeUnit.SECONDS)) {
                duringProc.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                if (failure == null) {
                    failure = "the command run during the job did not end";
                }
            } else if (duringProc.exitValue() != 0 && failure == null) {
                failure = "the command run during the job failed (exit " + duringProc.exitValue() + ")";
            }
        } else if (during != null && failure == null && expectExit == 0) {
            failure = "the job never ran, so the command to run during it did not start";
        }
        int rc = runnerRc.get();
        long rows = cluster.committedRows(tid);
        Long restored = null;
        String restoredPath = null;
        boolean restoredSavepoint = false;
        String lastCheckpointPath = null;
        long completed = -1;
        String jobState = "none";
        if (job != null) {
            try {
                AccessExecutionGraph g = cluster.mini.getArchivedExecutionGraph(job).get(30, TimeUnit.SECONDS);
                jobState = String.valueOf(g.getState());
                CheckpointStatsSnapshot cs = g.getCheckpointStatsSnapshot();
                if (cs != null) {
                    completed = cs.getCounts().getNumberOfCompletedCheckpoints();
                    RestoredCheckpointStats r = cs.getLatestRestoredCheckpoint();
                    if (r != null) {
                        restored = r.getCheckpointId();
                        restoredPath = r.getExternalPath();
                        restoredSavepoint = r.getProperties().isSavepoint();
                    }
                    var last = cs.getHistory().getLatestCompletedCheckpoint();
                    if (last != null) {
                        lastCheckpointPath = last.getExternalPath();
                    }
                }
            } catch (Exception e) {
                say(t0, "no execution graph: " + rootCause(e));
            }
        }
        say(t0, "result: runner exit " + (rc == Integer.MIN_VALUE ? "none" : rc) + ", job " + jobState
                + ", rows committed " + rows + ", snapshots " + cluster.snapshotCount(tid)
                + ", checkpoints completed " + completed + ", restored from checkpoint "
                + (restored == null ? "none" : restored + (restoredSavepoint ? " (a savepoint)" : "")
                        + " at " + restoredPath)
                + (killed ? ", task manager killed at " + rowsAtKill + " committed rows" : "")
                + (lastCheckpointPath != null ? ", last completed " + lastCheckpointPath : ""));
        if (failure != null) {
            return failure;
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        if (expectError != null && !out.contains(expectError)) {
            return "the runner's output does not mention '" + expectError + "'";
        }
        if (expectExit != 0) {
            if (rc != expectExit) {
                return "runner exit " + rc + ", expected " + expectExit;
            }
            if (job != null) {
                return "the runner exited " + rc + " but a job was submitted";
            }
            return null;
        }
        if (expectFailure) {
            return rc == fluid.runner.FlinkRunner.FAILED && "FAILED".equals(jobState) ? null
                    : "the job was expected to fail; runner exit " + rc + ", job " + jobState;
        }
        if (rc != 0) {
            return "runner exit " + rc;
        }
        if (killAfter >= 0 && !killed) {
            return "the task manager was not killed";
        }
        if (killAfter >= 0 && restored == null) {
            return "the job did not restore from a checkpoint after the task manager was killed";
        }
        if (fromSavepoint != null && (restored == null || !restoredSavepoint
                || !fromSavepoint.equals(restoredPath))) {
            return "the job did not restore from savepoint " + fromSavepoint + " (restored: "
                    + (restored == null ? "nothing" : restoredPath) + ")";
        }
        if (restorePrefix != null && (restoredPath == null || !restoredPath.startsWith(restorePrefix))) {
            return "the job restored from " + (restored == null ? "nothing" : restoredPath)
                    + ", not from a location under " + restorePrefix;
        }
        if (stopAfter >= 0) {
            if (savepoint == null) {
                return "the job was not stopped with a savepoint";
            }
            if (savepointOut != null) {
                Files.writeString(savepointOut, savepoint + "\n");
            }
            return stateConf != null && !savepoint.startsWith(savepointDir)
                    ? "savepoint " + savepoint + " is not under " + savepointDir : null;
        }
        if (expectRows >= 0 && rows != expectRows && !settled) {
            return rows + " rows committed, expected " + expectRows;
        }
        return null;
    }

    /**
     * The flinkConfiguration of the FlinkDeployment in a fluid-k8s resource list
     * (BUILD.k8s.json of fluid generate flink), as KEY=VALUE.  The high-availability
     * keys are left out: the MiniCluster has no Kubernetes, and a client told
     * high-availability.type=kubernetes would look for the leader there.
     */
    static List<String> renderedState(Path k8sJson) throws java.io.IOException {
        var om = new org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper();
        var root = om.readTree(k8sJson.toFile());
        List<String> out = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (var item : root.path("items")) {
            if (!"FlinkDeployment".equals(item.path("kind").asText())) {
                continue;
            }
            var it = item.path("spec").path("flinkConfiguration").fields();
            while (it.hasNext()) {
                var e = it.next();
                String kv = e.getKey() + "=" + e.getValue().asText();
                if (e.getKey().startsWith("high-availability.")) {
                    skipped.add(kv);
                } else {
                    out.add(kv);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(k8sJson + " has no FlinkDeployment with a flinkConfiguration");
        }
        Main.say("rendered flinkConfiguration (" + k8sJson.getFileName() + "): " + String.join(", ", out)
                + "; not applied (no Kubernetes here): " + String.join(", ", skipped));
        return out;
    }

    /** The last KEY=VALUE of KEY in a list of settings, or null. */
    private static String setting(List<String> conf, String key) {
        String v = null;
        for (String s : conf) {
            if (s.startsWith(key + "=")) {
                v = s.substring(key.length() + 1);
            }
        }
        return v;
    }

    /** NAME=EPOCH_MS  [seconds into the run] WHAT, appended to the events file. */
    private static void event(Path events, String name, long t0, String what) throws java.io.IOException {
        if (events == null) {
            return;
        }
        Files.writeString(events, String.format("%s=%d\t[%.1fs] %s%n", name, System.currentTimeMillis(),
                        (System.nanoTime() - t0) / 1e9, what),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    /** N, or @FILE:KEY: the KEY=N line of a properties file (lanecheck.py writes it). */
    private static long rowCount(String spec) throws java.io.IOException {
        if (!spec.startsWith("@")) {
            return Long.parseLong(spec);
        }
        int colon = spec.lastIndexOf(':');
        java.util.Properties p = new java.util.Properties();
        try (var r = Files.newBufferedReader(Path.of(spec.substring(1, colon)))) {
            p.load(r);
        }
        String v = p.getProperty(spec.substring(colon + 1));
        if (v == null) {
            throw new IllegalArgumentException("no " + spec.substring(colon + 1) + " in " + spec.substring(1, colon));
        }
        return Long.parseLong(v.strip());
    }

    private static long completedCheckpoints(Cluster cluster, JobID job) {
        try {
            CheckpointStatsSnapshot cs = cluster.mini.getExecutionGraph(job).get(10, TimeUnit.SECONDS)
                    .getCheckpointStatsSnapshot();
            return cs == null ? -1 : cs.getCounts().getNumberOfCompletedCheckpoints();
        } catch (Exception e) {
            return -1;
        }
    }

    private static boolean allRunning(Cluster cluster, JobID job) {
        try {
            AccessExecutionGraph g = cluster.mini.getExecutionGraph(job).get(10, TimeUnit.SECONDS);
            for (AccessExecutionVertex v : g.getAllExecutionVertices()) {
                if (v.getExecutionState() != ExecutionState.RUNNING) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private static void say(long t0, String s) {
        Main.say(String.format("[%5.1fs] %s", (System.nanoTime() - t0) / 1e9, s));
    }

    /** Passes the runner's lines on, without the EXPLAIN plans (they stay in the capture). */
    private static final class PlanFilter extends OutputStream {
        private final PrintStream out;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private boolean inPlan;

        PlanFilter(PrintStream out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int c) {
            if (c != '\n') {
                line.write(c);
                return;
            }
            String l = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (l.startsWith("== EXPLAIN")) {
                inPlan = true;
                out.println("fluid-flink-runner: " + l.substring(3) + " (plan not shown)");
                return;
            }
            if (l.startsWith("fluid-flink-runner:")) {
                inPlan = false;
            }
            if (!inPlan) {
                out.println(l);
            }
        }

        @Override
        public void flush() {
            out.flush();
        }
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }
    }
}
