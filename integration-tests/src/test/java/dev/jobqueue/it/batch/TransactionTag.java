package dev.jobqueue.it.batch;

import jakarta.transaction.TransactionScoped;
import java.io.Serializable;
import java.util.UUID;

/** A name for the current transaction: each transaction gets its own instance. */
@TransactionScoped
public class TransactionTag implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String name = UUID.randomUUID().toString();

    public String name() {
        return name;
    }
}
