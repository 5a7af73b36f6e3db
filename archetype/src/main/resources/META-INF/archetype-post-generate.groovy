// The archetype does not keep file modes: make the Maven wrapper runnable again.
def project = new File(request.outputDirectory, request.artifactId)
new File(project, "mvnw").setExecutable(true, false)
