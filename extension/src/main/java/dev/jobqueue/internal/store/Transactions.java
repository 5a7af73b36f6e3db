package dev.jobqueue.internal.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import jakarta.transaction.Transactional.TxType;
import java.util.concurrent.Callable;

/** Runs work in a new JTA transaction that rolls back on any exception, checked ones included. */
@ApplicationScoped
public class Transactions {

    @Transactional(value = TxType.REQUIRES_NEW, rollbackOn = Exception.class)
    public <T> T inNewTransaction(Callable<T> work) throws Exception {
        return work.call();
    }
}
