package dev.jobqueue.internal.dispatch;

import jakarta.enterprise.context.ApplicationScoped;

/** Jobs run on their own: the {@link RunMode} outside tests. */
@ApplicationScoped
public class AutomaticRunMode implements RunMode {

    @Override
    public boolean automatic() {
        return true;
    }
}
