// SPDX-License-Identifier: Apache-2.0
package fluid.live;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The live lane's Flink JVM. It runs the product's runner (fluid.runner.FlinkRunner)
 * in this JVM, EXPLAIN-only or against an embedded MiniCluster owned here (so
 * that a task manager can be killed midway), one step after another, so that
 * the JIT warms up once for every check.
 *
 * <pre>
 * plan [--catalog-uri URI] [--s3-endpoint URL] [--state-dir D] [--results F] [--set K=V]... PLANFILE
 * </pre>
 *
 * PLANFILE has one step a line (tokens split at spaces; '#' starts a comment):
 * <pre>
 * check NAME                  starts a check; a failing step fails it and skips its other steps
 * explain [--report F] [--no-fail] NAME=SCRIPT=TABLE_JSON...   runner --validate-only over each
 *                             (--no-fail: a later step judges the report)
 * run --script S --table T [--expect-rows N|@FILE:KEY] [--settle] [--kill-tm-after-rows K]
 *     [--expect-failure] [--expect-error TEXT]
 *     [--expect-exit N] [--timeout-s S] [--set K=V]... [--env-allow NAMES] [--during CMD...]
 * exec [--timeout-s S] CMD...  a command; a non-zero exit fails the step
 * spawn NAME CMD...           a command in the background (e.g. a producer across two runs)
 * join [--timeout-s S] NAME   waits for it; a non-zero exit fails the step
 * </pre>
 * run also takes [--state-conf BUILD.k8s.json] [--stop-after-rows K] [--savepoint-out F]
 * [--from-savepoint PATH|@F] [--expect-restore-prefix P] [--while-running NAME] [--events F]
 * (see RunJob).
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        int rc;
        if (args.length == 0 || !args[0].equals("plan")) {
            System.err.println("usage: harness plan [options] PLANFILE");
            rc = 2;
        } else {
            rc = new Plan().run(Arrays.copyOfRange(args, 1, args.length));
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(rc);
    }

    /** EXPLAIN each NAME=SCRIPT=TABLE with the runner's --validate-only; one report line each. */
    static boolean explain(List<String> args, List<String> globalSets) throws IOException {
        List<String> sets = new ArrayList<>();
        for (String s : globalSets) {
            sets.add("--set");
            sets.add(s);
        }
        List<String[]> jobs = new ArrayList<>();
        Path report = null;
        boolean noFail = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--set")) {
                sets.add("--set");
                sets.add(args.get(++i));
            } else if (a.equals("--report")) {
                report = Path.of(args.get(++i));
            } else if (a.equals("--no-fail")) {
                noFail = true;
            } else {
                String[] p = a.split("=", 3);
                if (p.length != 3) {
                    throw new IllegalArgumentException("expected NAME=SCRIPT=TABLE_JSON, got " + a);
                }
                jobs.add(p);
            }
        }
        int ok = 0;
        StringBuilder rep = new StringBuilder();
        for (String[] j : jobs) {
            List<String> a = new ArrayList<>();
            a.add("--validate-only");
            a.addAll(sets);
            a.add(j[1]);
            a.add(j[2]);
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
            long t0 = System.nanoTime();
            int rc = fluid.runner.FlinkRunner.run(a.toArray(new String[0]), ps, ps);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            ps.flush();
            String text = buf.toString(StandardCharsets.UTF_8);
            Files.writeString(Path.of(j[1] + ".explain.txt"), text);
            if (rc == 0) {
                ok++;
                say("explain ok     " + j[0] + " (" + ms + " ms)");
                rep.append(j[0]).append("\tok\n");
            } else {
                say("explain FAILED " + j[0] + " (runner exit " + rc + "; plan and error in "
                        + j[1] + ".explain.txt)");
                System.out.println(indent(errorPart(text)));
                rep.append(j[0]).append("\tfailed\t").append(rc).append('\t')
                        .append(errorPart(text).replace('\n', ' ').replace('\t', ' ')).append('\n');
            }
        }
        if (report != null) {
            Files.writeString(report, rep.toString());
        }
        say("explain: " + ok + " of " + jobs.size() + " accepted by Flink");
        return noFail || ok == jobs.size();
    }

    private static String errorPart(String text) {
        StringBuilder sb = new StringBuilder();
        boolean on = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("fluid-flink-runner:") && !line.contains(" exists and") && !line.contains(": created ")) {
                on = true;
            }
            if (on) {
                sb.append(line).append('\n');
            }
        }
        return sb.length() == 0 ? text : sb.toString();
    }

    static String indent(String s) {
        return "    " + s.strip().replace("\n", "\n    ");
    }

    static void say(String s) {
        System.out.println("harness: " + s);
        System.out.flush();
    }
}
