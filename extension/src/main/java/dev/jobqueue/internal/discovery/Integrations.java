package dev.jobqueue.internal.discovery;

import dev.jobqueue.internal.health.DatabaseReadiness;
import dev.jobqueue.internal.health.WorkerLiveness;
import dev.jobqueue.internal.metrics.MicroProfileJobMetrics;
import dev.jobqueue.internal.metrics.MicrometerJobMetrics;
import dev.jobqueue.internal.metrics.NoopJobMetrics;
import dev.jobqueue.internal.trace.NoJobTracing;
import dev.jobqueue.internal.trace.OpenTelemetryJobTracing;
import java.util.ArrayList;
import java.util.List;

/**
 * The server features that jobqueue reports to when the server has them, decided once per deployment from
 * what the application can see: MicroProfile Metrics, or else Micrometer, MicroProfile Health, and OpenTelemetry's
 * API (MicroProfile Telemetry).
 *
 * @param metrics    whether MicroProfile Metrics is there
 * @param micrometer whether Micrometer is there
 * @param health     whether MicroProfile Health is there
 * @param tracing    whether the OpenTelemetry API is there
 */
record Integrations(boolean metrics, boolean micrometer, boolean health, boolean tracing) {

    static Integrations visibleTo(ClassLoader loader) {
        return new Integrations(isVisible("org.eclipse.microprofile.metrics.MetricRegistry", loader),
                isVisible("io.micrometer.core.instrument.MeterRegistry", loader),
                isVisible("org.eclipse.microprofile.health.HealthCheck", loader),
                isVisible("io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator", loader)
                        && isVisible("io.opentelemetry.context.Context", loader));
    }

    /**
     * The beans these features bring, which the extension adds: the metrics recorder (MicroProfile Metrics' where
     * both metrics APIs are there, a no-op one where neither is), the health checks when there is Health, and the
     * tracer (a no-op one without OpenTelemetry). No other class refers to them by name, so a server without a feature
     * never loads the classes that need it.
     */
    List<Class<?>> beanClasses() {
        List<Class<?>> beans = new ArrayList<>();
        beans.add(metrics ? MicroProfileJobMetrics.class
                : micrometer ? MicrometerJobMetrics.class : NoopJobMetrics.class);
        if (health) {
            beans.add(DatabaseReadiness.class);
            beans.add(WorkerLiveness.class);
        }
        beans.add(tracing ? OpenTelemetryJobTracing.class : NoJobTracing.class);
        return beans;
    }

    private static boolean isVisible(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
