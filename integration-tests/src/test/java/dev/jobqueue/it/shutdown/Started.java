package dev.jobqueue.it.shutdown;

import dev.jobqueue.internal.store.JobRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Which jobs a consumer of this deployment has started. */
@ApplicationScoped
public class Started {

    private final Set<String> ids = ConcurrentHashMap.newKeySet();

    void add(String id) {
        ids.add(id);
    }

    boolean has(JobRow row) {
        return ids.contains(row.getId());
    }
}
