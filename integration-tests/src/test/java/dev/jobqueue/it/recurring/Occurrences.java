package dev.jobqueue.it.recurring;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the recurring consumers received, in order. */
@ApplicationScoped
public class Occurrences {

    private final List<Object> received = new CopyOnWriteArrayList<>();

    void add(Object payload) {
        received.add(payload);
    }

    public List<Object> received() {
        return List.copyOf(received);
    }
}
