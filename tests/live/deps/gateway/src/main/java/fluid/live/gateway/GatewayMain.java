// SPDX-License-Identifier: Apache-2.0
package fluid.live.gateway;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.gateway.SqlGateway;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;

/**
 * A Flink session cluster of its own (a MiniCluster, REST on 127.0.0.1) and
 * Flink's SQL Gateway in front of it, for the live lane's check "gateway".
 *
 * <pre>GatewayMain --cluster-port P --gateway-port G [--set key=value]...</pre>
 *
 * The gateway runs the statements fluid-gateway sends and submits each job
 * to the cluster through its REST endpoint (execution.target remote), as it
 * would to any session cluster.  TERM stops both.
 */
public final class GatewayMain {
    public static void main(String[] args) throws Exception {
        int clusterPort = 0;
        int gatewayPort = 0;
        Configuration extra = new Configuration();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cluster-port" -> clusterPort = Integer.parseInt(args[++i]);
                case "--gateway-port" -> gatewayPort = Integer.parseInt(args[++i]);
                case "--set" -> {
                    String kv = args[++i];
                    int eq = kv.indexOf('=');
                    extra.setString(kv.substring(0, eq), kv.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Configuration cc = new Configuration();
        cc.setString("rest.bind-address", "127.0.0.1");
        cc.setString("rest.address", "127.0.0.1");
        cc.setString("rest.port", Integer.toString(clusterPort));
        cc.setString("jobmanager.bind-host", "127.0.0.1");
        cc.setString("jobmanager.rpc.address", "127.0.0.1");
        cc.setString("taskmanager.bind-host", "127.0.0.1");
        cc.setString("taskmanager.host", "127.0.0.1");
        cc.setString("taskmanager.memory.network.min", "64m");
        cc.setString("taskmanager.memory.network.max", "64m");
        cc.setString("taskmanager.memory.managed.size", "64m");
        cc.addAll(extra);
        long t0 = System.nanoTime();
        MiniCluster mini = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(cc).setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        mini.start();
        int port = mini.getRestAddress().get(60, TimeUnit.SECONDS).getPort();
        say("cluster up in " + (System.nanoTime() - t0) / 1_000_000 + " ms, REST on 127.0.0.1:" + port);

        Configuration gc = new Configuration();
        gc.addAll(extra);
        gc.setString("execution.target", "remote");
        gc.setString("rest.address", "127.0.0.1");
        gc.setString("rest.port", Integer.toString(port));
        gc.setString("sql-gateway.endpoint.type", "rest");
        gc.setString("sql-gateway.endpoint.rest.address", "127.0.0.1");
        gc.setString("sql-gateway.endpoint.rest.bind-address", "127.0.0.1");
        gc.setString("sql-gateway.endpoint.rest.port", Integer.toString(gatewayPort));
        SqlGateway gw = new SqlGateway(gc, SessionManager.create(new DefaultContext(gc, List.of())));
        gw.start();
        say("SQL Gateway up, REST v2 on 127.0.0.1:" + gatewayPort);

        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            say("stopping");
            try {
                gw.stop();
            } catch (Exception e) {
                say("gateway stop: " + e);
            }
            try {
                mini.close();
            } catch (Exception e) {
                say("cluster stop: " + e);
            }
            done.countDown();
        }));
        done.await();
    }

    static void say(String s) {
        System.out.println("gateway: " + s);
        System.out.flush();
    }
}
