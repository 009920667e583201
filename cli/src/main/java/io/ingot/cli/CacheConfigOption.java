package io.ingot.cli;

import io.ingot.api.CoreOptions;

import java.util.List;

/**
 * Triton's {@code --cache-config <cache name>,<setting>=<value>} (and its deprecated {@code
 * --response-cache-byte-size N}, the same as {@code local,size=N}) for the one cache Ingot has: the local response
 * cache, whose only setting is {@code size} in bytes. Syntax errors use Triton's words
 * ({@code command_line_parser.cc}, {@code ParseCacheConfigOption}); a cache or setting Ingot does not have is refused
 * naming it. Stateless.
 */
final class CacheConfigOption
{
    private CacheConfigOption()
    {
    }

    /**
     * @param settings  every {@code --cache-config} value, in order (a later size wins, as in Triton)
     * @param byteSize  {@code --response-cache-byte-size}, or {@code null}
     * @param options   receives the cache size
     * @throws CliException USAGE for a malformed setting, another cache than {@code local}, or a bad size
     */
    static void apply(final List<String> settings, final String byteSize, final CoreOptions.Builder options)
    {
        if (byteSize != null)
        {
            options.responseCache(size(byteSize, "--response-cache-byte-size"));
        }
        for (final String setting : settings)
        {
            final int comma = setting.indexOf(',');
            final int equals = setting.indexOf('=', comma + 1);
            if (comma <= 0)
            {
                throw CliException.usage("No cache specified. --cache-config option format is "
                    + "<cache name>,<setting>=<value>. Got " + setting);
            }
            if (equals < 0 || equals == comma + 1 || equals == setting.length() - 1)
            {
                throw CliException.usage("--cache-config option format is '<cache name>,<setting>=<value>'. Got "
                    + setting);
            }
            final String cache = setting.substring(0, comma);
            final String key = setting.substring(comma + 1, equals);
            if (!cache.equals("local"))
            {
                throw CliException.usage("--cache-config: cache '" + cache + "' is not supported by Ingot, which has "
                    + "only Triton's 'local' cache (local,size=<bytes>)");
            }
            if (!key.equals("size"))
            {
                throw CliException.usage("--cache-config: the local cache has no setting '" + key
                    + "'; its only setting is size=<bytes>");
            }
            options.responseCache(size(setting.substring(equals + 1), "--cache-config local,size"));
        }
    }

    private static long size(final String value, final String option)
    {
        try
        {
            final long bytes = Long.parseLong(value.trim());
            if (bytes > 0)
            {
                return bytes;
            }
        }
        catch (final NumberFormatException notANumber)
        {
            // refused below
        }
        throw CliException.usage(option + " must be a positive number of bytes, got '" + value + "'");
    }
}
