// SPDX-License-Identifier: Apache-2.0
package fluid.live;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/** The MiniCluster the runner submits to, and a REST catalog client to watch tables. */
final class Cluster {
    final MiniCluster mini;
    final int restPort;
    final RESTCatalog catalog;
    /** Index of the live task manager (the MiniCluster keeps killed ones in its list). */
    int liveTaskManager = 0;

    Cluster(String catalogUri, String s3) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("rest.bind-address", "127.0.0.1");
        conf.setString("rest.address", "127.0.0.1");
        conf.setString("rest.port", "0");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("jobmanager.rpc.address", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        conf.setString("taskmanager.memory.network.min", "64m");
        conf.setString("taskmanager.memory.network.max", "64m");
        conf.setString("taskmanager.memory.managed.size", "64m");
        // Flink's own S3 filesystem for s3:// checkpoints and savepoints, as the
        // job image has it: flink-s3-fs-hadoop in plugins/ (FLINK_PLUGINS_DIR,
        // set by lane.sh), loaded in its own class loader.  A cluster entry point
        // initialises the file systems with the plugins; a MiniCluster does not,
        // so the harness does.  Endpoint and path-style access are the lane's
        // (fluid renders the locations, not the object store); the keys come from
        // AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, as in a pod from its Secret.
        conf.setString("s3.endpoint", s3);
        conf.setString("s3.path.style.access", "true");
        // Every state handle a file of its own (not inlined into the _metadata of a
        // checkpoint or savepoint), so that a restore reads the operators' state
        // from S3.  A cluster setting: the job's configuration does not reach the
        // JobManager's checkpoint storage for this key.
        conf.setString("execution.checkpointing.data-inline-threshold", "0");
        PluginManager plugins = PluginUtils.createPluginManagerFromRootFolder(conf);
        FileSystem.initialize(conf, plugins);
        long t0 = System.nanoTime();
        mini = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setPluginManager(plugins)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        mini.start();
        restPort = mini.getRestAddress().get(60, TimeUnit.SECONDS).getPort();
        Main.say("MiniCluster up in " + (System.nanoTime() - t0) / 1_000_000 + " ms, REST on 127.0.0.1:" + restPort
                + "; s3:// is served by " + FileSystem.get(java.net.URI.create("s3://flink-state/")).getClass().getName());

        Map<String, String> p = new HashMap<>();
        p.put("uri", catalogUri);
        p.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
        p.put("s3.endpoint", s3);
        p.put("s3.path-style-access", "true");
        catalog = new RESTCatalog();
        catalog.initialize("harness", p);
    }

    /** total-records of the current snapshot; -1 no table, 0 no snapshot, -2 unreadable. */
    long committedRows(TableIdentifier id) {
        try {
            if (!catalog.tableExists(id)) {
                return -1;
            }
            Table t = catalog.loadTable(id);
            Snapshot s = t.currentSnapshot();
            if (s == null) {
                return 0;
            }
            String n = s.summary().get("total-records");
            return n == null ? 0 : Long.parseLong(n);
        } catch (RuntimeException e) {
            return -2;
        }
    }

    int snapshotCount(TableIdentifier id) {
        try {
            if (!catalog.tableExists(id)) {
                return -1;
            }
            int n = 0;
            for (Snapshot s : catalog.loadTable(id).snapshots()) {
                n++;
            }
            return n;
        } catch (RuntimeException e) {
            return -2;
        }
    }

    void close() {
        try {
            catalog.close();
        } catch (Exception e) {
            // best effort
        }
        try {
            mini.closeAsync().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            Main.say("MiniCluster close: " + e);
        }
    }
}
