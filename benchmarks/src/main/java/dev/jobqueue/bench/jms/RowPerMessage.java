package dev.jobqueue.bench.jms;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The Jakarta EE way to get one database effect per message: a message-driven bean whose container-managed
 * transaction spans the message's delivery from Liberty's embedded messaging engine and one row written through
 * an XA datasource on PostgreSQL, committed together by two-phase commit. jobqueue's transactional consumer makes
 * the same promise for a job; this is the anchor its drain is compared with.
 */
@MessageDriven(name = "RowPerMessage", activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = JmsDrain.QUEUE_JNDI),
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
public class RowPerMessage implements MessageListener {

    @Resource(lookup = JmsDrain.XA_DATASOURCE_JNDI)
    DataSource xa;

    @Inject
    MessageCount count;

    @Override
    public void onMessage(Message message) {
        try (Connection connection = xa.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + JmsDrain.TABLE + " (message_id, body) VALUES (?, ?)")) {
            insert.setString(1, message.getJMSMessageID());
            insert.setString(2, message.getBody(String.class));
            insert.executeUpdate();
        } catch (SQLException | JMSException e) {
            // The transaction rolls back and the engine delivers the message again.
            throw new IllegalStateException("cannot write the row of message: " + e, e);
        }
        count.add();
    }
}
