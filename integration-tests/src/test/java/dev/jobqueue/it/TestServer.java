package dev.jobqueue.it;

/**
 * Which server the tests run on: Liberty, WildFly with {@code -Pwildfly}, or Payara Micro with
 * {@code -Ppayara}. The build names it in the system
 * property {@code it.server}. Tests ask only where the servers differ in something the test itself sets up, or
 * where a test cannot run on one of them (then they say why, in an assumption).
 */
public final class TestServer {

    private TestServer() {
    }

    public static boolean isWildFly() {
        return "wildfly".equals(name());
    }

    public static boolean isPayara() {
        return "payara".equals(name());
    }

    private static String name() {
        return System.getProperty("it.server", "liberty");
    }
}
