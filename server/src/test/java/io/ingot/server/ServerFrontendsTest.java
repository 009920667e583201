package io.ingot.server;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Starting, disabling and stopping the listeners. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerFrontendsTest
{
    private final InferenceCore core = InferenceCore.open(CoreOptions.builder().build());

    @AfterAll
    void stop()
    {
        core.close();
    }

    @Test
    void bindsEphemeralPortsOnLoopbackAndDisablesNegativeOnes() throws Exception
    {
        try (ServerFrontends frontends = ServerFrontends.start(core, "127.0.0.1", 0, -1, 0, 1 << 20);
             HttpClient client = HttpClient.newHttpClient())
        {
            assertTrue(frontends.httpPort() > 0);
            assertEquals(-1, frontends.grpcPort());
            assertTrue(frontends.metricsPort() > 0);
            final HttpResponse<String> live = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + frontends.httpPort() + "/v2/health/live")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, live.statusCode());
        }
    }

    @Test
    void aTakenPortIsReportedWithTheAddressAndClosingFreesThePorts() throws IOException
    {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> ServerFrontends.start(core, "127.0.0.1", taken.getLocalPort(), -1, -1, 1 << 20));
            assertTrue(failure.getMessage().contains("127.0.0.1") && failure.getMessage().contains(
                Integer.toString(taken.getLocalPort())), failure.getMessage());
        }
        final int port;
        try (ServerFrontends first = ServerFrontends.start(core, "127.0.0.1", 0, 0, -1, 1 << 20))
        {
            port = first.grpcPort();
        }
        try (ServerFrontends again = ServerFrontends.start(core, "127.0.0.1", -1, port, -1, 1 << 20))
        {
            assertEquals(port, again.grpcPort());
        }
    }

    @Test
    void optionsAreValidated()
    {
        assertThrows(IllegalArgumentException.class,
            () -> FrontendOptions.defaults().withMaxHttpRequestBytes(0));
        assertThrows(IllegalArgumentException.class,
            () -> FrontendOptions.defaults().withMaxHttpRequestBytes(4L << 30));
        assertThrows(IllegalArgumentException.class, () -> FrontendOptions.defaults().withPorts(70000, 0, 0));
        assertEquals("127.0.0.1", FrontendOptions.defaults().host());
        assertEquals(64L << 20, FrontendOptions.defaults().maxHttpRequestBytes());
    }
}
