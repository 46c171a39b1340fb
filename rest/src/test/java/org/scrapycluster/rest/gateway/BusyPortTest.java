package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewaySettings;

/** A gateway whose port is taken refuses to start with a setting error that names FLASK_PORT. */
@ExtendWith(SharedStack.class)
class BusyPortTest {

    @Test
    void aPortInUseIsASettingErrorNamingFlaskPort(EmbeddedStack stack) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Settings built = GatewaySettings.forStack(stack).set("FLASK_PORT", Integer.toString(taken.getLocalPort())).build();
            try (ServiceHost host = ServiceHost.start(built); RestGateway gateway = new RestGateway(host.context(built))) {
                SettingsException refused = assertThrows(SettingsException.class, gateway::start);
                assertTrue(refused.getMessage().contains("FLASK_PORT") && refused.getMessage().contains(Integer.toString(taken.getLocalPort())),
                        refused.getMessage());
            }
        }
    }
}
