package dev.jobqueue.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * isolationLevel. Every other test deploys on the shipped datasources, which pass the check.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class IsolationIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "repeatable-read", managed = false, testable = false)
    static WebArchive repeatableRead() {
        return Deployments.war("repeatable-read", InstantConsumer.class, Recorder.class)
                .addAsWebInfResource("isolation/web.xml", "web.xml");
    }

    @Test
    void a_datasource_at_repeatable_read_fails_the_deployment_naming_the_setting_that_fixes_it() {
        long logOffset = ServerLog.length();
        Exception error = assertThrows(Exception.class, () -> deployer.deploy("repeatable-read"));
        try {
            String messages = error + "\n" + ServerLog.since(logOffset);
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
