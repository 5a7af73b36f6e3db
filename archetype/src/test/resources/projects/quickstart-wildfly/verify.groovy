// Runs after goal.txt's build of the generated project, which is under this folder.
project = new File(basedir, "project/shop")
assert new File(project, "src/main/wildfly/application.cli").isFile() : "the WildFly configuration is there"
port = 9283
elsewhere = ["src/main/liberty", "src/main/payara"]
def wildfly = new File(project, "target").listFiles().find { it.isDirectory() && it.name.startsWith("wildfly-") }
log = new File(wildfly, "standalone/log/server.log")
assert !log.text.contains("WFLYTX0013") : "the generated server gives its transaction manager a node identifier"
return evaluate(new File(basedir, "../checks.groovy"))
