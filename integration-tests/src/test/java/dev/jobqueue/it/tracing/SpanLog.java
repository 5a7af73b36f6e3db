package dev.jobqueue.it.tracing;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The test application's span exporter, {@code otel.traces.exporter=in-memory}, as in the MicroProfile Telemetry
 * TCK: the OpenTelemetry SDK finds it through {@link Provider}, a service of the application, and it keeps every
 * span the application's SDK ends. Each application has its own.
 */
public final class SpanLog implements SpanExporter {

    private static final List<SpanData> FINISHED = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean MADE = new AtomicBoolean();

    /** The spans ended so far. */
    static List<SpanData> finished() {
        return List.copyOf(FINISHED);
    }

    /** Whether the application's SDK made an exporter at all: it does not while it is disabled. */
    static boolean made() {
        return MADE.get();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        FINISHED.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }

    /** Makes the exporter named {@code in-memory}. */
    public static final class Provider implements ConfigurableSpanExporterProvider {

        @Override
        public SpanExporter createExporter(ConfigProperties config) {
            MADE.set(true);
            return new SpanLog();
        }

        @Override
        public String getName() {
            return "in-memory";
        }
    }
}
