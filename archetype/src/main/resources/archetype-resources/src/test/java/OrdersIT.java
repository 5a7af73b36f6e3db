package ${package};

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;
import java.io.File;
import java.time.Duration;
import java.time.Instant;
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
    static WebArchive app() {
        // The application as packaged, jobqueue's jar included; Arquillian adds this test to it. Its own name, so
        // that it does not replace the application liberty:dev runs on the same server.
        return ShrinkWrap.create(ZipImporter.class, "${artifactId}-test.war")
                .importFrom(new File("target/${artifactId}.war")).as(WebArchive.class);
    }

    @Inject
    Orders orders;

    @Test
    void a_placed_order_is_confirmed_by_its_job() throws InterruptedException {
        String id = orders.place("tea");

        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (orders.find(id).getConfirmedAt() == null && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        assertNotNull(orders.find(id).getConfirmedAt(), "the confirmation job ran");
        assertTrue(orders.find(id).getConfirmedAt().isBefore(Instant.now().plusSeconds(1)));
    }
}
