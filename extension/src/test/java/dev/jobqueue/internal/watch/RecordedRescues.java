package dev.jobqueue.internal.watch;

import dev.jobqueue.LeaseRescued;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.fixtures.RecordingEvent;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import java.util.ArrayList;
import java.util.List;

/** Lease rescues whose events and wake-ups the test reads: a rescue wakes its queue to read from the first due job. */
final class RecordedRescues {

    final RecordingEvent<LeaseRescued> events = new RecordingEvent<>();
    final List<String> woken = new ArrayList<>();
    final LeaseRescues rescues = new LeaseRescues();

    RecordedRescues() {
        rescues.metrics = new NoopJobMetrics();
        rescues.events = events;
        rescues.dispatcher = new Dispatcher() {
            @Override
            public void rewind(String queue) {
                woken.add(queue);
            }
        };
    }
}
