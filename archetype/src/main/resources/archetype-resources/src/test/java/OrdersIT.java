package ${package};

import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.jobqueue.test.DrainedJob;
import dev.jobqueue.test.JobQueueTester;
import jakarta.inject.Inject;
import java.io.File;
import java.net.URISyntaxException;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** On the Liberty server the build starts: a placed order's confirmation job runs and confirms it. */
@ExtendWith(ArquillianExtension.class)
class OrdersIT {

    @Deployment
    static WebArchive app() throws URISyntaxException {
        // The application as packaged, plus jobqueue-test (the jar this test compiles against): in this WAR only,
        // jobs run when the test drains their queue. Arquillian adds this test to it. Its own name, so that it does
        // not replace the application liberty:dev runs on the same server.
        File testKit = new File(JobQueueTester.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ShrinkWrap.create(ZipImporter.class, "${artifactId}-test.war")
                .importFrom(new File("target/${artifactId}.war")).as(WebArchive.class)
                .addAsLibrary(testKit);
    }

    @Inject
    Orders orders;

    @Inject
    JobQueueTester jobs;

    @Test
    void a_placed_order_is_confirmed_by_its_job() {
        String id = orders.place("tea");

        // Runs the queue's due jobs now and waits for them: no sleeping, no polling.
        List<DrainedJob> drained = jobs.drain(Orders.CONFIRMATION_QUEUE);

        assertNotNull(orders.find(id).getConfirmedAt(), () -> "the confirmation job confirmed the order: " + drained);
    }
}
