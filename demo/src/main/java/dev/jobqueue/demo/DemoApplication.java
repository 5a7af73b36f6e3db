package dev.jobqueue.demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Serves the demo's REST resources from the root. */
@ApplicationPath("/")
public class DemoApplication extends Application {
}
