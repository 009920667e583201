package io.ingot.server.protocol;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;

/** Version strings of the protocol ({@code "1"}, or empty for the server's choice) and Ingot's version numbers. */
public final class ModelVersions
{
    private ModelVersions()
    {
    }

    /**
     * @param version a version string: empty/{@code null} for the default, else decimal digits
     * @return the version number, or {@link InferenceRequest#DEFAULT_VERSION}
     * @throws InferenceException INVALID_ARG when the string is not a non-negative integer
     */
    public static long parse(final String version)
    {
        if (version == null || version.isEmpty())
        {
            return InferenceRequest.DEFAULT_VERSION;
        }
        for (int i = 0; i < version.length(); i++)
        {
            final char c = version.charAt(i);
            if (c < '0' || c > '9')
            {
                throw invalid(version);
            }
        }
        try
        {
            return Long.parseLong(version);
        }
        catch (final NumberFormatException tooLarge)
        {
            throw invalid(version);
        }
    }

    /**
     * @param version a version number as responses report it
     * @return its string form
     */
    public static String format(final long version)
    {
        return Long.toString(version);
    }

    private static InferenceException invalid(final String version)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, "failed to get model version from specified version "
            + "string '" + version + "': expected a non-negative integer");
    }
}
