package dev.jobqueue.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.jobqueue.it.app.InstantConsumer;
import dev.jobqueue.it.app.Recorder;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * jobqueue refuses to start on a datasource that is not READ COMMITTED, naming the fix. The application's
 * DefaultDataSource is bound to a second datasource on the same database, set to REPEATABLE READ by its
 * isolationLevel. Every other test deploys on the shipped datasources, which pass the check. On Payara, where the
 * web.xml's resource-ref does not rebind java:comp/DefaultDataSource, the application's own Payara Micro makes that
 * datasource the server's default instead ({@code payara-post-boot.asadmin}).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class IsolationIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "repeatable-read", managed = false, testable = false)
    static WebArchive repeatableRead() {
        return Deployments.war("repeatable-read", InstantConsumer.class, Recorder.class)
                .addAsWebInfResource("isolation/web.xml", "web.xml")
                .addAsWebInfResource("isolation/payara-post-boot.asadmin", "payara-post-boot.asadmin");
    }

    @Test
    void a_datasource_at_repeatable_read_fails_the_deployment_naming_the_setting_that_fixes_it() {
        assumeFalse(TestServer.isWildFly(), "WildFly binds java:comp/DefaultDataSource for the whole server (the ee"
                + " subsystem's default-bindings), and an application cannot bind it to another datasource"
                + " (WFLYEE0047), so this test cannot give jobqueue a REPEATABLE READ datasource there");
        ServerLog.Mark logMark = ServerLog.mark();
        Exception error = assertThrows(Exception.class, () -> deployer.deploy("repeatable-read"));
        try {
            String messages = error + "\n" + ServerLog.since(logMark);
            for (String fragment : new String[] {
                    "JQ035: jobqueue's datasource (java:comp/DefaultDataSource) runs transactions at REPEATABLE READ",
                    "jobqueue needs READ COMMITTED", "isolationLevel=\"TRANSACTION_READ_COMMITTED\""}) {
                assertTrue(messages.contains(fragment), "expected '" + fragment + "' in:\n" + messages);
            }
        } finally {
            try {
                deployer.undeploy("repeatable-read");
            } catch (RuntimeException ignored) {
                // a deployment that failed may not be there to undeploy
            }
        }
    }
}
