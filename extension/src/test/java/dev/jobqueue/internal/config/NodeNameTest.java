package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeNameTest {

    @Test
    void on_liberty_the_server_is_named_after_its_output_folder() {
        assertEquals("orders-2", NodeName.serverName(Map.of("server.output.dir", "/opt/wlp/usr/servers/orders-2/",
                "jboss.node.name", "ignored")::get));
    }

    @Test
    void on_wildfly_the_server_is_named_by_its_node_name_so_two_servers_on_one_host_differ() {
        assertEquals("node-b", NodeName.serverName(Map.of("jboss.node.name", " node-b ")::get));
    }

    @Test
    void elsewhere_the_server_is_called_server() {
        assertEquals("server", NodeName.serverName(Map.<String, String>of()::get));
        assertEquals("server", NodeName.serverName(Map.of("jboss.node.name", " ")::get));
    }
}
