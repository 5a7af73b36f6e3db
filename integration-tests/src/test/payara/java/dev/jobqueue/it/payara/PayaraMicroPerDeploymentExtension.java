package dev.jobqueue.it.payara;

import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/** Puts {@link PayaraMicroPerDeployment} in the place of Payara's own managed Payara Micro container. */
public class PayaraMicroPerDeploymentExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.override(DeployableContainer.class, PayaraMicroDeployableContainer.class,
                PayaraMicroPerDeployment.class);
    }
}
