package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import jakarta.transaction.UserTransaction;
import java.util.concurrent.Callable;

/** Runs work in a new JTA transaction that rolls back on any exception, checked ones included. */
@ApplicationScoped
public class Transactions {

    @Resource(lookup = JndiNames.SYNCHRONIZATION_REGISTRY)
    TransactionSynchronizationRegistry registry;

    @Resource(lookup = JndiNames.USER_TRANSACTION)
    UserTransaction userTransaction;

    /** This bean through its proxy, so that {@link #inNewTransaction} gets its interceptor. */
    @Inject
    Transactions self;

    /** Suspends the caller's transaction, if any, for the work's own. */
    @Transactional(value = TxType.REQUIRES_NEW, rollbackOn = Exception.class)
    public <T> T inNewTransaction(Callable<T> work) throws Exception {
        return work.call();
    }

    /**
     * Runs a consumer's work in a transaction begun and ended here, on a worker thread that has none. Its
     * exceptions are expected, so they pass through no interceptor: the server records no incident (FFDC) for a
     * failed attempt. The transaction rolls back and the exception is thrown as it is; a failed commit throws
     * the commit's exception.
     *
     * <p>Payara refuses UserTransaction on a thread that carries an EJB's invocation, and a task submitted from an
     * EJB (a job started at once after a put in the EJB's transaction) carries it there, through the managed
     * executor's context. Such work gets the same new transaction from {@link #inNewTransaction} instead.
     */
    public <T> T inConsumerTransaction(Callable<T> work) throws Exception {
        int status;
        try {
            status = userTransaction.getStatus();
        } catch (IllegalStateException refused) {
            return self.inNewTransaction(work);
        }
        if (status != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("jobqueue: a consumer's transaction must not start inside another");
        }
        try {
            userTransaction.begin();
        } catch (IllegalStateException refused) {
            return self.inNewTransaction(work);
        }
        T result;
        try {
            result = work.call();
        } catch (Exception | Error e) {
            rollBack(e);
            throw e;
        }
        userTransaction.commit();
        return result;
    }

    /** Whether the current transaction is marked rollback-only: it would roll back without an error. */
    public boolean isRollbackOnly() {
        return registry.getRollbackOnly();
    }

    private void rollBack(Throwable cause) {
        try {
            userTransaction.rollback();
        } catch (SystemException | IllegalStateException | SecurityException e) {
            cause.addSuppressed(e);
        }
    }
}
