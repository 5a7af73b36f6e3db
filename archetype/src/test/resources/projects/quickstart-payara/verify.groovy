// Runs after goal.txt's build of the generated project, which is under this folder.
project = new File(basedir, "project/shop")
assert new File(project, "src/main/payara/post-boot.asadmin").isFile() : "the Payara configuration is there"
port = 9284
elsewhere = ["src/main/liberty", "src/main/wildfly"]
// Payara Micro logs to the build's output.
log = new File(project, "build.log")
return evaluate(new File(basedir, "../checks.groovy"))
