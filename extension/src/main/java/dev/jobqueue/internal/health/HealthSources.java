package dev.jobqueue.internal.health;

import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.store.SchemaCheck;
import dev.jobqueue.internal.watch.LeaseKeeper;
import java.time.Clock;

/**
 * What the health checks read, handed to them as an event when jobqueue starts, not injected. The extension adds
 * the checks as beans of their own ({@code Integrations}), and Payara puts a type added that way in a bean archive
 * of its own, which sees the server's beans but none of the extension jar's: an injection point of a jobqueue type
 * there is unsatisfied. The jar's beans do see that archive, so an event fired by one of them reaches the checks,
 * on every server. This type uses nothing of MicroProfile Health, so firing it loads no class that needs it.
 *
 * @param schema      probes the database and jobqueue's tables
 * @param dispatcher  the queues' pollers
 * @param leaseKeeper the node's lease keeper
 * @param clock       jobqueue's clock
 */
public record HealthSources(SchemaCheck schema, Dispatcher dispatcher, LeaseKeeper leaseKeeper, Clock clock) {
}
