package io.ingot.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Ports for servers a test starts in a process of its own, where the test must name the port up front. */
public final class Ports
{
    private Ports()
    {
    }

    /**
     * @return a TCP port that was free a moment ago (the kernel's pick for an ephemeral bind, released at once)
     */
    public static int free()
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free TCP port", ex);
        }
    }
}
