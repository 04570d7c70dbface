// SPDX-License-Identifier: Apache-2.0
import java.nio.file.Files;
import java.nio.file.Paths;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;

/**
 * FlinkPlan CATALOG SOURCE.sql SINK.sql INSERT.sql - the CFK target's
 * statements of one build through Flink's own planner, as CMF runs them:
 * one at a time, in order, in a catalog CATALOG (database "default") of
 * their own.  The two CREATE TABLEs are executed (the catalog keeps
 * them); the INSERT is planned (explainSql), so its SQL, names and types
 * are Flink's to accept.  Only the sink's connector options are replaced,
 * by 'connector' = 'blackhole': Iceberg's connector opens its REST
 * catalog when the INSERT is planned, and none runs here.  Exit 0 when
 * all three are accepted; the reason of a refusal is printed.
 */
public final class FlinkPlan {
	public static void main(String[] args) throws Exception {
		TableEnvironment t = TableEnvironment.create(
		    EnvironmentSettings.inStreamingMode());
		t.registerCatalog(args[0],
		    new GenericInMemoryCatalog(args[0], "default"));
		for (int i = 1; i < args.length; i++) {
			String s = new String(Files.readAllBytes(Paths.get(args[i])),
			    "UTF-8").trim();
			if (s.endsWith(";"))
				s = s.substring(0, s.length() - 1);
			if (i == 2) {
				int w = s.lastIndexOf(" WITH (\n");
				if (w < 0)
					throw new IllegalArgumentException("no WITH in the sink");
				s = s.substring(0, w) + " WITH ('connector' = 'blackhole')";
			}
			if (i == 3)
				t.explainSql(s);
			else
				t.executeSql(s);
		}
		System.out.println("planned");
	}
}
