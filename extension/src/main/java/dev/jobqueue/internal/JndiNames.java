package dev.jobqueue.internal;

/**
 * The JNDI names of the server resources jobqueue uses, each written once. They are the Jakarta EE defaults, so
 * the server's default datasource and managed executors are the ones jobqueue runs on.
 */
public final class JndiNames {

    public static final String DATASOURCE = "java:comp/DefaultDataSource";
    public static final String EXECUTOR = "java:comp/DefaultManagedExecutorService";
    public static final String SCHEDULER = "java:comp/DefaultManagedScheduledExecutorService";
    public static final String THREAD_FACTORY = "java:comp/DefaultManagedThreadFactory";
    public static final String SYNCHRONIZATION_REGISTRY = "java:comp/TransactionSynchronizationRegistry";
    public static final String USER_TRANSACTION = "java:comp/UserTransaction";
    public static final String APPLICATION_NAME = "java:app/AppName";

    private JndiNames() {
    }
}
