package io.ingot.server;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KServeFrontendTest
{
    @Test
    void commandLineOptionsAndSettingsReachTheServer()
    {
        final FrontendOptions server = KServeFrontend.toServerOptions(new io.ingot.server.ServeOptions("0.0.0.0",
            18000, 18001, 18002, Optional.empty(),
            Map.of(KServeFrontend.MAX_REQUEST_BYTES, "1048576", KServeFrontend.ALLOW_CLIENT_SHM, "false")));
        assertEquals("0.0.0.0", server.host());
        assertEquals(18000, server.httpPort());
        assertEquals(18001, server.grpcPort());
        assertEquals(18002, server.metricsPort());
        assertEquals(1_048_576, server.maxHttpRequestBytes());
        assertFalse(server.allowClientShm());
        assertTrue(KServeFrontend.toServerOptions(new io.ingot.server.ServeOptions("127.0.0.1", 1, 2, 3,
            Optional.empty(), Map.of())).allowClientShm());
    }

    @Test
    void aMalformedSettingIsNamed()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> KServeFrontend.toServerOptions(new io.ingot.server.ServeOptions("127.0.0.1", 1, 2, 3,
                Optional.empty(), Map.of(KServeFrontend.MAX_REQUEST_BYTES, "lots"))));
        assertTrue(ex.getMessage().contains("http-max-request-bytes") && ex.getMessage().contains("lots"));
    }
}
