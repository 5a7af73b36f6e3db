package dev.jobqueue.internal.store;

import dev.jobqueue.internal.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.concurrent.Callable;

/** Runs work in a new JTA transaction that rolls back on any exception, checked ones included. */
@ApplicationScoped
public class Transactions {

    @Resource(lookup = JndiNames.SYNCHRONIZATION_REGISTRY)
    TransactionSynchronizationRegistry registry;

    @Transactional(value = TxType.REQUIRES_NEW, rollbackOn = Exception.class)
    public <T> T inNewTransaction(Callable<T> work) throws Exception {
        return work.call();
    }

    /** Whether the current transaction is marked rollback-only: it would roll back without an error. */
    public boolean isRollbackOnly() {
        return registry.getRollbackOnly();
    }
}
