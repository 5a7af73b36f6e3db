package dev.jobqueue.it.bounds;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A bad {@code max-payload-size} fails the deployment with a JQ020 message, even in an application with no consumer. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("any-database")
class PayloadLimitConfigIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "bad-limit", managed = false, testable = false)
    static WebArchive badLimit() {
        return Deployments.war("bounds-bad-limit", "bounds-bad", JobRows.class);
    }

    @Test
    void a_bad_global_payload_limit_fails_the_deployment_naming_the_key_and_value() {
        Exception error = assertThrows(Exception.class, () -> deployer.deploy("bad-limit"));
        try {
            StringBuilder chain = new StringBuilder();
            for (Throwable cause = error; cause != null; cause = cause.getCause()) {
                chain.append(cause).append('\n');
            }
            assertTrue(chain.toString().contains("JQ020: configuration key jobqueue.max-payload-size has the invalid"
                    + " value '1MB': expected a size in bytes such as 1048576, 512KiB or 1MiB"), chain.toString());
        } finally {
            try {
                deployer.undeploy("bad-limit");
            } catch (RuntimeException ignored) {
                // a deployment that failed may not be there to undeploy
            }
        }
    }
}
