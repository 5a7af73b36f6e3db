package dev.jobqueue.it;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** Builds test applications the way users package theirs: classes, their persistence unit, and the extension jar. */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive war(String name, Class<?>... classes) {
        return war(name, "app", classes);
    }

    /** A test application whose MicroProfile Config comes from {@code <configFolder>/microprofile-config.properties}. */
    public static WebArchive war(String name, String configFolder, Class<?>... classes) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(classes)
                .addClass(Await.class)
                .addAsLibrary(extensionJar())
                .addAsResource("app/persistence.xml", "META-INF/persistence.xml")
                .addAsResource(configFolder + "/microprofile-config.properties", "META-INF/microprofile-config.properties")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    public static JavaArchive extensionJar() {
        String path = System.getProperty("jobqueue.extension.jar");
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException("system property jobqueue.extension.jar must name the built extension jar, was "
                    + path);
        }
        return ShrinkWrap.createFromZipFile(JavaArchive.class, new File(path));
    }
}
