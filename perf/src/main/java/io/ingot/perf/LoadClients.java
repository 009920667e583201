package io.ingot.perf;

import java.util.ArrayList;
import java.util.List;

/** Makes the clients of a load level all at once, so that a level either has every client or none. */
final class LoadClients
{
    private LoadClients()
    {
    }

    /**
     * @param target the target
     * @param count  how many clients
     * @return {@code count} new clients
     * @throws RuntimeException what {@link LoadTarget#newClient()} threw, after closing the clients made before
     */
    static List<LoadClient> open(final LoadTarget target, final int count)
    {
        final List<LoadClient> clients = new ArrayList<>(count);
        try
        {
            for (int i = 0; i < count; i++)
            {
                clients.add(target.newClient());
            }
            return clients;
        }
        catch (final RuntimeException ex)
        {
            clients.forEach(LoadClient::close);
            throw ex;
        }
    }
}
