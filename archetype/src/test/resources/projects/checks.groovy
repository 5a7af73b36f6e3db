// What every generated project must show after its build, whatever its server. A project's verify.groovy binds
// project (the generated project's folder), port (its HTTP port), elsewhere (the folders of the other servers'
// configuration) and log (the file with the application's start-up line), then evaluates this file.
assert !new File(project, "servers").exists() : "the other servers' files are gone"
elsewhere.each { assert !new File(project, it).exists() : "no ${it}: it belongs to another server" }

// The test kit stops jobs from running; only the test WAR may hold it.
def war = new java.util.zip.ZipFile(new File(project, "target/shop.war"))
def libs = war.entries().toList()*.name.findAll { it.startsWith("WEB-INF/lib/") }
war.close()
assert libs.any { it.contains("jobqueue-extension") } : "the WAR holds jobqueue: ${libs}"
assert !libs.any { it.contains("jobqueue-test") } : "the WAR holds no test kit: ${libs}"

// The application's own start-up line names the dashboard on the build's port, with the development login.
def expected = "jobqueue's dashboard at http://localhost:${port}/shop-test/jobqueue/ (development login admin / dev-only)"
assert log.text.contains(expected) : "${log} has: ${expected}"
return true
