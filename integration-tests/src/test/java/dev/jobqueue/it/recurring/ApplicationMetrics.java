package dev.jobqueue.it.recurring;

import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The application's MicroProfile Metrics registry, through an injection point: Liberty's producer reads the
 * registry's scope from the injection point, and answers a programmatic lookup of the registry with null. The
 * test deploys this bean only to a server that has MicroProfile Metrics.
 */
@Dependent
class ApplicationMetrics {

    @Inject
    MetricRegistry registry;
}
