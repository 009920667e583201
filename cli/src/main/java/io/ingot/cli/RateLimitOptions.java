package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.RateLimitMode;
import io.ingot.api.RateLimitResource;

import java.util.List;
import java.util.Locale;

/**
 * Triton's {@code --rate-limit=execution_count|off} and {@code --rate-limit-resource=<name>:<count>[:<device>]}
 * (server {@code src/command_line_parser.cc}, {@code ParseRateLimiterResourceOption}), with Triton's messages. The
 * mode is case-insensitive; a resource's name is kept as written, as Triton's parser does (it lower-cases a copy it
 * never uses), so it matches the configurations' names exactly. Stateless.
 */
final class RateLimitOptions
{
    private RateLimitOptions()
    {
    }

    /**
     * @param mode      {@code --rate-limit}, or {@code null} (Triton's default, off)
     * @param resources every {@code --rate-limit-resource}, in order
     * @param options   receives the mode and the counts
     * @throws CliException USAGE with Triton's message for a bad mode, format or number
     */
    static void apply(final String mode, final List<String> resources, final CoreOptions.Builder options)
    {
        if (mode != null)
        {
            options.rateLimit(switch (mode.toLowerCase(Locale.ROOT))
            {
                case "execution_count" -> RateLimitMode.EXECUTION_COUNT;
                case "off" -> RateLimitMode.OFF;
                default -> throw CliException.usage("Bad option: \"--rate-limit\". invalid argument for --rate-limit");
            });
        }
        for (final String resource : resources)
        {
            options.rateLimitResource(parse(resource));
        }
    }

    /**
     * @param arg one {@code --rate-limit-resource} value
     * @return the resource it gives
     * @throws CliException USAGE with Triton's message
     */
    static RateLimitResource parse(final String arg)
    {
        final String[] parts = arg.split(":", -1);
        if (parts.length < 2 || parts.length > 3)
        {
            throw bad("--rate-limit-resource option format is '<resource_name>:<count>:<device>' or "
                + "'<resource_name>:<count>'. Got " + arg);
        }
        final int count = number(parts[1]);
        if (count < 0)
        {
            throw bad("--rate-limit-resource count must be 0 or more. Got " + arg);
        }
        final int device = parts.length == 3 ? number(parts[2]) : RateLimitResource.EVERY_DEVICE;
        if (device < RateLimitResource.EVERY_DEVICE)
        {
            throw bad("--rate-limit-resource device must be 0 or more (or omitted for every device). Got " + arg);
        }
        return new RateLimitResource(parts[0], count, device);
    }

    /** Triton's {@code ParseOption<int>} (std::stoi) and its two messages; Ingot takes only the whole text. */
    private static int number(final String text)
    {
        if (!text.trim().matches("[+-]?[0-9]+"))
        {
            throw bad("Invalid option value. Got " + text);
        }
        try
        {
            return Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException tooLarge)
        {
            throw bad("Provided option value is out of bound. Got " + text);
        }
    }

    private static CliException bad(final String message)
    {
        return CliException.usage("Bad option: \"--rate-limit-resource\". " + message);
    }
}
