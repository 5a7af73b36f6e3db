package dev.jobqueue.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClaimSizerTest {

    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void beforeAnyJobRanAClaimTakesOneJobPerConsumer() {
        assertEquals(4, new ClaimSizer(4, 64).claimSize());
        assertEquals(2, new ClaimSizer(4, 2).claimSize());
    }

    @Test
    void fastJobsAreClaimedUpToTheBatchSize() {
        ClaimSizer sizer = new ClaimSizer(4, 64);
        sizer.ran(MILLI / 10);
        assertEquals(64, sizer.claimSize());
    }

    @Test
    void slowJobsAreClaimedOneAtATime() {
        ClaimSizer sizer = new ClaimSizer(4, 64);
        sizer.ran(2_000 * MILLI);
        assertEquals(1, sizer.claimSize(), "a fifth of a job per 100 ms, rounded up to one");
    }

    @Test
    void aClaimCoversWhatTheConsumersFinishInAHundredMilliseconds() {
        ClaimSizer sizer = new ClaimSizer(4, 64);
        sizer.ran(20 * MILLI);
        assertEquals(20, sizer.claimSize());
    }

    @Test
    void theSizeFollowsAChangeInRunTimeGradually() {
        ClaimSizer sizer = new ClaimSizer(4, 64);
        sizer.ran(1_000 * MILLI);
        for (int i = 0; i < 10; i++) {
            sizer.ran(MILLI / 10);
        }
        assertEquals(1, sizer.claimSize(), "ten fast runs after a slow one leave the average at a quarter second");
        for (int i = 0; i < 100; i++) {
            sizer.ran(MILLI / 10);
        }
        assertEquals(64, sizer.claimSize());
    }
}
