package io.ingot.client;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an inference call says besides its tensors, as the keyword arguments of Triton's {@code infer}: the model
 * version, the request id, the sequence (id, start, end), the priority, the server-side queue timeout, custom
 * parameters, extra headers (HTTP) or metadata (gRPC), and the client-side timeout. Immutable and thread-safe; build
 * with {@link #builder()}, or use {@link #NONE}.
 *
 * @param modelVersion   the version to run, or "" for the server's choice
 * @param requestId      echoed in the response, or ""
 * @param sequenceId     a numeric sequence id (0: none), or ignored when {@code sequenceIdString} is set
 * @param sequenceIdString a string sequence id, or null
 * @param sequenceStart  whether this request starts its sequence
 * @param sequenceEnd    whether this request ends its sequence
 * @param priority       the request's priority level (0: the model's default)
 * @param timeoutMicros  the server-side timeout in microseconds (Triton's {@code timeout}), or null for none
 * @param parameters     custom request parameters (String, Boolean, Integer, Long or Double values)
 * @param headers        extra HTTP headers, or gRPC metadata
 * @param clientTimeout  how long the client waits for the response (null: the client's default)
 */
public record InferOptions(String modelVersion, String requestId, long sequenceId, String sequenceIdString,
    boolean sequenceStart, boolean sequenceEnd, long priority, Long timeoutMicros, Map<String, Object> parameters,
    Map<String, String> headers, Duration clientTimeout)
{
    /** No options: the server's default version, no id, no sequence, default priority, no timeouts. */
    public static final InferOptions NONE = builder().build();

    /** Triton's reserved request parameters ({@code TRITON_RESERVED_REQUEST_PARAMS}), set only through the fields. */
    private static final List<String> RESERVED = List.of("sequence_id", "sequence_start", "sequence_end", "priority",
        "timeout", "headers", "binary_data_output");

    /** Checks the custom parameters as Triton's clients do. */
    public InferOptions
    {
        parameters = Map.copyOf(parameters);
        headers = Map.copyOf(headers);
        for (final Map.Entry<String, Object> parameter : parameters.entrySet())
        {
            final String key = parameter.getKey();
            if (RESERVED.contains(key) || key.startsWith("triton_"))
            {
                throw new InferenceServerException("Parameter \"" + key
                    + "\" is a reserved parameter and cannot be specified.");
            }
            if (!(parameter.getValue() instanceof String || parameter.getValue() instanceof Boolean
                || parameter.getValue() instanceof Integer || parameter.getValue() instanceof Long
                || parameter.getValue() instanceof Double))
            {
                throw new InferenceServerException("The parameter datatype \"" + parameter.getValue().getClass()
                    .getName() + "\" for key \"" + key + "\" is not supported.");
            }
        }
    }

    /** @return whether the request carries a sequence id */
    public boolean hasSequence()
    {
        return sequenceIdString != null || sequenceId != 0;
    }

    /** @return a builder with no options set */
    public static Builder builder()
    {
        return new Builder();
    }

    /** Builds {@link InferOptions}. Not thread-safe. */
    public static final class Builder
    {
        private String modelVersion = "";
        private String requestId = "";
        private long sequenceId;
        private String sequenceIdString;
        private boolean sequenceStart;
        private boolean sequenceEnd;
        private long priority;
        private Long timeoutMicros;
        private final Map<String, Object> parameters = new LinkedHashMap<>();
        private final Map<String, String> headers = new LinkedHashMap<>();
        private Duration clientTimeout;

        private Builder()
        {
        }

        /** @return this, for the given model version */
        public Builder modelVersion(final String version)
        {
            this.modelVersion = version;
            return this;
        }

        /** @return this, with a request id the response echoes */
        public Builder requestId(final String id)
        {
            this.requestId = id;
            return this;
        }

        /** @return this, in the numeric sequence {@code id} */
        public Builder sequence(final long id, final boolean start, final boolean end)
        {
            this.sequenceId = id;
            this.sequenceIdString = null;
            this.sequenceStart = start;
            this.sequenceEnd = end;
            return this;
        }

        /** @return this, in the string sequence {@code id} */
        public Builder sequence(final String id, final boolean start, final boolean end)
        {
            this.sequenceIdString = id;
            this.sequenceId = 0;
            this.sequenceStart = start;
            this.sequenceEnd = end;
            return this;
        }

        /** @return this, at priority level {@code level} (1 is the highest) */
        public Builder priority(final long level)
        {
            this.priority = level;
            return this;
        }

        /** @return this, with a server-side timeout */
        public Builder timeoutMicros(final long micros)
        {
            this.timeoutMicros = micros;
            return this;
        }

        /** @return this, with a custom request parameter */
        public Builder parameter(final String key, final Object value)
        {
            parameters.put(key, value);
            return this;
        }

        /** @return this, with an extra HTTP header or gRPC metadata entry */
        public Builder header(final String name, final String value)
        {
            headers.put(name, value);
            return this;
        }

        /** @return this, waiting at most {@code timeout} for the response */
        public Builder clientTimeout(final Duration timeout)
        {
            this.clientTimeout = timeout;
            return this;
        }

        /**
         * @return the options
         * @throws InferenceServerException for a reserved parameter name or an unsupported parameter type
         */
        public InferOptions build()
        {
            return new InferOptions(modelVersion, requestId, sequenceId, sequenceIdString, sequenceStart, sequenceEnd,
                priority, timeoutMicros, parameters, headers, clientTimeout);
        }
    }
}
