// Runs after goal.txt's build of the generated project, which is under this folder.
project = new File(basedir, "project/shop")
assert new File(project, "src/main/liberty/config/server.xml").isFile() : "the Liberty configuration is there"
port = 9281
elsewhere = ["src/main/wildfly", "src/main/payara"]
log = new File(project, "target/liberty/wlp/usr/servers/defaultServer/logs/messages.log")
return evaluate(new File(basedir, "../checks.groovy"))
