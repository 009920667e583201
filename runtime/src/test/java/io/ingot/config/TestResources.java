package io.ingot.config;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Locates the sample configurations under {@code src/test/resources/config}. */
final class TestResources
{
    private TestResources()
    {
    }

    static Path config(final String fileName)
    {
        final URL url = TestResources.class.getResource("/config/" + fileName);
        if (url == null)
        {
            throw new IllegalArgumentException("no test resource config/" + fileName);
        }
        try
        {
            return Path.of(url.toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
