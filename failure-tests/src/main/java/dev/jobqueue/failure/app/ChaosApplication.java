package dev.jobqueue.failure.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves {@link ChaosResource} under {@code /chaos}. */
@ApplicationPath("/chaos")
public class ChaosApplication extends Application {
}
