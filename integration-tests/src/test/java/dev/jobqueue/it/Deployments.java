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
        return builtJar("jobqueue.extension.jar");
    }

    /** The test kit, jobqueue-test, as a user adds it to a test deployment. */
    public static JavaArchive testKitJar() {
        return builtJar("jobqueue.test.jar");
    }

    private static JavaArchive builtJar(String property) {
        String path = System.getProperty(property);
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException("system property " + property + " must name a built jar, was " + path);
        }
        return ShrinkWrap.createFromZipFile(JavaArchive.class, new File(path));
    }
}
