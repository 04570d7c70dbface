// SPDX-License-Identifier: Apache-2.0
package fluid.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a plan file: checks made of steps, one result line per check. */
final class Plan {
    private final List<String> sets = new ArrayList<>();
    private String catalogUri = "http://127.0.0.1:8181";
    private String s3 = "http://127.0.0.1:9000";
    private Path stateDir = Path.of("/tmp/fluid-live-state");
    private Path results;
    private Cluster cluster;
    /** Commands started by spawn, by name, until join. */
    private final Map<String, Process> spawned = new HashMap<>();

    int run(String[] args) throws Exception {
        String planFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--catalog-uri": catalogUri = args[++i]; break;
                case "--s3-endpoint": s3 = args[++i]; break;
                case "--state-dir": stateDir = Path.of(args[++i]); break;
                case "--results": results = Path.of(args[++i]); break;
                case "--set": sets.add(args[++i]); break;
                default:
                    if (planFile != null) {
                        System.err.println("harness: one plan file");
                        return 2;
                    }
                    planFile = args[i];
            }
        }
        if (planFile == null) {
            System.err.println("harness: no plan file");
            return 2;
        }
        Files.createDirectories(stateDir);
        List<String> lines = Files.readAllLines(Path.of(planFile));
        StringBuilder res = new StringBuilder();
        String check = null;
        String failure = null;
        long checkStart = 0;
        int passed = 0;
        int failed = 0;
        for (int ln = 0; ln <= lines.size(); ln++) {
            String line = ln < lines.size() ? lines.get(ln).strip() : "check";
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> tok = tokens(line);
            String cmd = tok.remove(0);
            if (cmd.equals("check")) {
                if (check != null) {
                    long s = (System.nanoTime() - checkStart) / 1_000_000_000L;
                    if (failure == null) {
                        passed++;
                        Main.say("check " + check + ": ok (" + s + " s)");
                        res.append(check).append("\tok\t").append(s).append('\n');
                    } else {
                        failed++;
                        Main.say("check " + check + ": FAILED (" + s + " s): " + failure);
                        res.append(check).append("\tfailed\t").append(s).append('\t')
                                .append(failure.replace('\n', ' ').replace('\t', ' ')).append('\n');
                    }
                    if (results != null) {
                        Files.writeString(results, res.toString());
                    }
                }
                stopSpawned();
                if (ln >= lines.size()) {
                    break;
                }
                check = String.join(" ", tok);
                failure = null;
                checkStart = System.nanoTime();
                Main.say("=== check " + check);
                continue;
            }
            if (failure != null) {
                continue;
            }
            try {
                String why = step(cmd, tok);
                if (why != null) {
                    failure = "line " + (ln + 1) + " (" + cmd + "): " + why;
                }
            } catch (Exception e) {
                failure = "line " + (ln + 1) + " (" + cmd + "): " + fluid.runner.FlinkRunner.class.getSimpleName()
                        + " harness error: " + e;
                e.printStackTrace(System.out);
            }
        }
        if (cluster != null) {
            cluster.close();
        }
        Main.say(passed + " checks passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    /** One step; null when it succeeded, else why not. */
    private String step(String cmd, List<String> tok) throws Exception {
        switch (cmd) {
            case "explain":
                return Main.explain(tok, sets) ? null : "Flink refused a script (see above)";
            case "exec":
                return exec(tok);
            case "spawn":
                return spawn(tok);
            case "join":
                return join(tok);
            case "run":
                if (cluster == null) {
                    cluster = new Cluster(catalogUri, s3);
                }
                return RunJob.run(cluster, tok, sets, stateDir, spawned);
            default:
                return "unknown step " + cmd;
        }
    }

    /** Split at spaces; "double quotes" keep spaces inside one token. */
    static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
                if (cur == null) {
                    cur = new StringBuilder();
                }
            } else if (Character.isWhitespace(c) && !quoted) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
            } else {
                if (cur == null) {
                    cur = new StringBuilder();
                }
                cur.append(c);
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }

    /** A check's spawned commands end with it (a failed step skips its join). */
    private void stopSpawned() throws InterruptedException {
        for (Map.Entry<String, Process> e : spawned.entrySet()) {
            if (e.getValue().isAlive()) {
                Main.say("stopping " + e.getKey() + ", spawned and never joined");
                e.getValue().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        spawned.clear();
    }

    /** spawn NAME CMD...: start CMD in the background (steps that follow run meanwhile). */
    private String spawn(List<String> tok) throws IOException {
        if (tok.size() < 2) {
            return "spawn needs NAME CMD...";
        }
        String name = tok.get(0);
        if (spawned.containsKey(name)) {
            return name + " was spawned already";
        }
        spawned.put(name, new ProcessBuilder(tok.subList(1, tok.size())).inheritIO().start());
        Main.say("spawned " + name + ": " + String.join(" ", tok.subList(1, tok.size())));
        return null;
    }

    /** join [--timeout-s S] NAME: wait for a spawned command; a non-zero exit fails the step. */
    private String join(List<String> tok) throws InterruptedException {
        long timeout = 300;
        if (!tok.isEmpty() && tok.get(0).equals("--timeout-s")) {
            timeout = Long.parseLong(tok.get(1));
            tok = tok.subList(2, tok.size());
        }
        if (tok.size() != 1 || !spawned.containsKey(tok.get(0))) {
            return "join needs the NAME of a spawned command";
        }
        Process p = spawned.remove(tok.get(0));
        if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return tok.get(0) + " did not end within " + timeout + " s";
        }
        return p.exitValue() == 0 ? null : tok.get(0) + " exited " + p.exitValue();
    }

    static String exec(List<String> tok) throws IOException, InterruptedException {
        long timeout = 300;
        if (!tok.isEmpty() && tok.get(0).equals("--timeout-s")) {
            timeout = Long.parseLong(tok.get(1));
            tok = tok.subList(2, tok.size());
        }
        Process p = new ProcessBuilder(tok).inheritIO().start();
        if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return "timed out after " + timeout + " s: " + String.join(" ", tok);
        }
        return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + String.join(" ", tok);
    }
}
