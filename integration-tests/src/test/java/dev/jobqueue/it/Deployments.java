package dev.jobqueue.it;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Builds test applications the way users package theirs: classes, their persistence unit, and the extension jar. */
final class Deployments {

    private Deployments() {
    }

    static WebArchive war(String name, Class<?>... classes) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(classes)
                .addAsLibrary(extensionJar())
                .addAsResource("app/persistence.xml", "META-INF/persistence.xml")
                .addAsResource("app/microprofile-config.properties", "META-INF/microprofile-config.properties")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    static JavaArchive extensionJar() {
        String path = System.getProperty("jobqueue.extension.jar");
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException("system property jobqueue.extension.jar must name the built extension jar, was "
                    + path);
        }
        return ShrinkWrap.createFromZipFile(JavaArchive.class, new File(path));
    }
}
