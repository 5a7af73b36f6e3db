package dev.jobqueue.it.shutdown;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves {@link JobProbe}. */
@ApplicationPath("probe")
public class ProbeApplication extends Application {
}
