// SPDX-License-Identifier: Apache-2.0
package fluid.live;

import fluid.runner.Statements;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The desc check's other way to a table (tests/live/py/desc_check.py): the
 * script's own CREATE CATALOG, CREATE DATABASE and CREATE TABLE, as Flink
 * 1.20 parses them and Iceberg's Flink catalog creates the table, without the
 * runner (which would create the table from the table file first). What the
 * catalog then holds is read back with pyiceberg.
 *
 * <pre>
 * java -cp HARNESS_AND_FLINK_CLASSPATH fluid.live.DescDdl SCRIPT.sql
 * </pre>
 */
public final class DescDdl {
    private DescDdl() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: DescDdl SCRIPT.sql");
            System.exit(2);
        }
        String script = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        int n = 0;
        for (String st : Statements.split(script)) {
            if (Statements.startsWithWords(st, "CREATE", "CATALOG")
                    || Statements.startsWithWords(st, "CREATE", "DATABASE")
                    || Statements.startsWithWords(st, "CREATE", "TABLE")) {
                env.executeSql(st).await();
                System.out.println("desc: ran " + st.strip().split("\\s+", 4)[1] + " " + (++n));
            }
        }
        if (n != 3) {
            System.err.println("desc: expected 3 CREATE statements in " + args[0] + ", ran " + n);
            System.exit(1);
        }
        System.exit(0);
    }
}
