import java.nio.file.Files
import java.nio.file.StandardCopyOption

def project = new File(request.outputDirectory, request.artifactId)

// The chosen server's files (its README, configuration and arquillian.xml) into the project; the others away.
def servers = new File(project, "servers")
def chosen = new File(servers, request.properties.get("server"))
chosen.eachFileRecurse(groovy.io.FileType.FILES) { file ->
    def target = new File(project, chosen.toPath().relativize(file.toPath()).toString())
    target.parentFile.mkdirs()
    Files.move(file.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING)
}
servers.deleteDir()

// The archetype does not keep file modes: make the Maven wrapper runnable again.
new File(project, "mvnw").setExecutable(true, false)
