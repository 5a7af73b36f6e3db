package dev.jobqueue.failure.app;

import dev.jobqueue.GroupFinished;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Records every {@link GroupFinished} this node observes, so the test can count them. The test terminates
 * connections and restarts the database, so a failed write is tried again, for up to a minute: the event is
 * fired once, and a lost record would look like a lost event.
 */
@ApplicationScoped
public class GroupEventRecorder {

    private static final Logger LOG = Logger.getLogger(GroupEventRecorder.class.getName());
    private static final int TRIES = 60;

    @Inject
    FaultLog log;

    void onFinished(@Observes GroupFinished finished) throws InterruptedException {
        String delivery = UUID.randomUUID().toString();
        for (int attempt = 1; attempt <= TRIES; attempt++) {
            try {
                if (attempt == 1 || !log.recorded(delivery)) {
                    log.groupFinished(delivery, finished);
                }
                return;
            } catch (Exception e) {
                LOG.info("chaos: cannot record " + finished + " yet (try " + attempt + "): " + e);
                Thread.sleep(1_000);
            }
        }
        LOG.severe("chaos: gave up recording " + finished);
    }
}
