package dev.jobqueue.it.payara;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/** What {@link PayaraMicroPerDeployment} starts, as {@code arquillian.xml} sets it from the build's properties. */
public class PayaraMicroConfiguration implements ContainerConfiguration {

    private String microJar;
    private String rootDirectory;
    private String libraries;
    private String postBootCommands;
    private String jvmOptions = "";
    private String microOptions = "";
    private int httpPort = 8280;
    private int startTimeoutSeconds = 300;

    @Override
    public void validate() throws ConfigurationException {
        for (String file : new String[] {microJar, postBootCommands}) {
            if (file == null || !new File(file).isFile()) {
                throw new ConfigurationException("not a file: " + file);
            }
        }
        if (rootDirectory == null || libraries == null) {
            throw new ConfigurationException("rootDirectory and libraries must be set");
        }
    }

    /** The distribution, {@code payara-micro.jar}. */
    public String getMicroJar() {
        return microJar;
    }

    public void setMicroJar(String microJar) {
        this.microJar = microJar;
    }

    /** Where the root every Payara Micro starts from a copy of is made; the copies are made beside it. */
    public String getRootDirectory() {
        return rootDirectory;
    }

    public void setRootDirectory(String rootDirectory) {
        this.rootDirectory = rootDirectory;
    }

    /** The JDBC drivers' jars, separated by colons, as {@code --addlibs} takes them. */
    public String getLibraries() {
        return libraries;
    }

    public void setLibraries(String libraries) {
        this.libraries = libraries;
    }

    /** The post-boot command file, applied once to the root's configuration. */
    public String getPostBootCommands() {
        return postBootCommands;
    }

    public void setPostBootCommands(String postBootCommands) {
        this.postBootCommands = postBootCommands;
    }

    public void setJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
    }

    /** The options of each Payara Micro's JVM, separated by white space. */
    List<String> jvmOptions() {
        return split(jvmOptions);
    }

    public void setMicroOptions(String microOptions) {
        this.microOptions = microOptions;
    }

    /** Payara Micro's options for every start, separated by white space. */
    List<String> microOptions() {
        return split(microOptions);
    }

    /** The HTTP port of the first Payara Micro; one started beside it takes the next. */
    public int getHttpPort() {
        return httpPort;
    }

    public void setHttpPort(int httpPort) {
        this.httpPort = httpPort;
    }

    public int getStartTimeoutSeconds() {
        return startTimeoutSeconds;
    }

    public void setStartTimeoutSeconds(int startTimeoutSeconds) {
        this.startTimeoutSeconds = startTimeoutSeconds;
    }

    private static List<String> split(String options) {
        return options == null || options.isBlank() ? List.of() : Arrays.asList(options.trim().split("\\s+"));
    }
}
