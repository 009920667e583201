package io.ingot.server.access;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Endpoints restricted to clients that send a header with a value, as Triton's {@code --http-restricted-api} and
 * {@code --grpc-restricted-protocol} define them (command_line_parser.cc, ParseRestrictedFeatureOption): each
 * argument is {@code <api>[,<api>...]:<key>=<value>}; a category may appear in one argument only. For gRPC the
 * metadata key is {@code triton-grpc-protocol-<key>}, as in Triton. A request to a restricted endpoint without the
 * header, or with another value, is refused: HTTP 403 {@code {"error":"This API is restricted, expecting header
 * '<key>'"}}, gRPC UNAVAILABLE "This protocol is restricted, expecting header '<key>'" (http_server.cc,
 * RespondIfRestricted; grpc_server.cc, CommonCallData::Execute). Immutable.
 */
public final class RestrictedApis
{
    /** The prefix Triton puts before the key of a gRPC restriction (grpc_server.h). */
    public static final String GRPC_KEY_PREFIX = "triton-grpc-protocol-";

    private static final RestrictedApis NONE = new RestrictedApis(new EnumMap<>(ApiCategory.class));

    private final Map<ApiCategory, Restriction> restrictions;

    /**
     * A header a restricted category requires.
     *
     * @param header the header (HTTP) or metadata key (gRPC)
     * @param value  the value it must have
     */
    public record Restriction(String header, String value)
    {
        /**
         * @param actual the value the request sent, or {@code null}
         * @return whether it is the expected one
         */
        public boolean allows(final String actual)
        {
            return value.equals(actual);
        }
    }

    private RestrictedApis(final Map<ApiCategory, Restriction> restrictions)
    {
        this.restrictions = Collections.unmodifiableMap(restrictions);
    }

    /** @return nothing restricted (the default) */
    public static RestrictedApis none()
    {
        return NONE;
    }

    /**
     * Parses Triton's {@code --http-restricted-api} arguments.
     *
     * @param arguments each {@code <apis>:<key>=<value>}
     * @return the restrictions
     * @throws IllegalArgumentException with Triton's message for a malformed argument, an unknown API, or an API in
     *                                  two arguments
     */
    public static RestrictedApis parseHttp(final List<String> arguments)
    {
        return parse(arguments, "http-restricted-api", "", "api");
    }

    /**
     * Parses Triton's {@code --grpc-restricted-protocol} arguments; keys get Triton's {@value #GRPC_KEY_PREFIX}.
     *
     * @param arguments each {@code <protocols>:<key>=<value>}
     * @return the restrictions
     * @throws IllegalArgumentException as {@link #parseHttp}
     */
    public static RestrictedApis parseGrpc(final List<String> arguments)
    {
        return parse(arguments, "grpc-restricted-protocol", GRPC_KEY_PREFIX, "protocol");
    }

    private static RestrictedApis parse(final List<String> arguments, final String option, final String keyPrefix,
        final String featureType)
    {
        if (arguments.isEmpty())
        {
            return NONE;
        }
        final EnumMap<ApiCategory, Restriction> parsed = new EnumMap<>(ApiCategory.class);
        for (final String argument : arguments)
        {
            final int colon = argument.indexOf(':');
            final int equals = colon < 0 ? -1 : argument.indexOf('=', colon + 1);
            final String format = "--" + option + " option format is '<config name>:<setting>=<value>'. Got "
                + argument;
            if (colon <= 0 || equals < 0 || equals == colon + 1 || equals == argument.length() - 1)
            {
                throw new IllegalArgumentException(format);
            }
            final String key = argument.substring(colon + 1, equals);
            final String value = argument.substring(equals + 1);
            for (final String feature : argument.substring(0, colon).split(",", -1))
            {
                final ApiCategory category = ApiCategory.fromTritonName(feature);
                if (category == null)
                {
                    throw new IllegalArgumentException("unknown restricted " + featureType + " '" + feature
                        + "' (allowed: " + ApiCategory.allNames() + ")");
                }
                if (parsed.containsKey(category))
                {
                    throw new IllegalArgumentException("restricted " + featureType + " '" + feature
                        + "' can not be specified in multiple config groups");
                }
                final String header = keyPrefix + key;
                parsed.put(category, new Restriction(keyPrefix.isEmpty() ? header : header.toLowerCase(Locale.ROOT),
                    value));
            }
        }
        return new RestrictedApis(parsed);
    }

    /**
     * @param category a category
     * @return the header it requires, or {@code null} when it is open to every client
     */
    public Restriction of(final ApiCategory category)
    {
        return category == null ? null : restrictions.get(category);
    }

    /**
     * @param category a category
     * @return whether it is restricted
     */
    public boolean isRestricted(final ApiCategory category)
    {
        return restrictions.containsKey(category);
    }

    /** @return whether nothing is restricted */
    public boolean isEmpty()
    {
        return restrictions.isEmpty();
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        restrictions.forEach((category, restriction) -> text.append(text.isEmpty() ? "" : ", ")
            .append(category.tritonName()).append(" (header '").append(restriction.header()).append("')"));
        return text.isEmpty() ? "none" : text.toString();
    }
}
