package io.ingot.server.protocol;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;

/**
 * The request-level {@code parameters} Triton reserves, applied the same way for HTTP and gRPC once each frontend
 * has read the value from its wire form: {@code priority} and {@code timeout} (µs) reach the scheduler, the
 * sequence parameters ({@code sequence_id}, {@code sequence_start}, {@code sequence_end}) reach a model's sequence
 * batcher (other models ignore them, as Triton's do); {@code triton_*} keys are refused; every other key is a custom
 * parameter, passed to the model's backend as Triton passes it ({@link #applyCustom}).
 */
public final class RequestParameters
{
    /** Priority level, 0 = the model's default, 1 = highest. */
    public static final String PRIORITY = "priority";
    /** Queue timeout in microseconds. */
    public static final String TIMEOUT = "timeout";
    /** Sequence correlation id. */
    public static final String SEQUENCE_ID = "sequence_id";
    /** First request of a sequence. */
    public static final String SEQUENCE_START = "sequence_start";
    /** Last request of a sequence. */
    public static final String SEQUENCE_END = "sequence_end";
    /** HTTP: return outputs not listed in {@code outputs} as binary data. */
    public static final String BINARY_DATA_OUTPUT = "binary_data_output";
    /** Reserved for header forwarding. */
    public static final String HEADERS = "headers";
    /** Prefix of keys Triton reserves for itself. */
    public static final String TRITON_PREFIX = "triton_";

    private RequestParameters()
    {
    }

    /**
     * @param request  the request
     * @param priority the priority level, {@code >= 0}
     */
    public static void applyPriority(final InferenceRequest request, final long priority)
    {
        if (priority < 0)
        {
            throw invalid("Unable to parse 'priority': expected an unsigned integer, got " + priority);
        }
        request.priority(priority);
    }

    /**
     * @param request the request
     * @param micros  the queue timeout in microseconds, {@code >= 0}
     */
    public static void applyTimeout(final InferenceRequest request, final long micros)
    {
        if (micros < 0)
        {
            throw invalid("Unable to parse 'timeout': expected an unsigned integer of microseconds, got " + micros);
        }
        request.timeoutMicros(micros);
    }

    /**
     * Sets a numeric {@code sequence_id}, keeping the START/END flags already read (parameters come in any order).
     *
     * @param request the request
     * @param id      the correlation ID, unsigned (a negative {@code long} stands for 2^63 or more); 0 = none
     */
    public static void applySequenceId(final InferenceRequest request, final long id)
    {
        request.sequence(id, request.sequenceStart(), request.sequenceEnd());
    }

    /**
     * Sets a string {@code sequence_id}, keeping the flags already read.
     *
     * @param request the request
     * @param id      the correlation ID; empty = none
     */
    public static void applySequenceId(final InferenceRequest request, final String id)
    {
        request.sequence(id, request.sequenceStart(), request.sequenceEnd());
    }

    /**
     * Sets {@code sequence_start} or {@code sequence_end}, keeping the ID and the other flag.
     *
     * @param request the request
     * @param key     {@link #SEQUENCE_START} or {@link #SEQUENCE_END}
     * @param value   the flag
     */
    public static void applySequenceFlag(final InferenceRequest request, final String key, final boolean value)
    {
        final boolean start = key.equals(SEQUENCE_START) ? value : request.sequenceStart();
        final boolean end = key.equals(SEQUENCE_END) ? value : request.sequenceEnd();
        if (request.sequenceKey() != null)
        {
            request.sequence(request.sequenceKey(), start, end);
        }
        else
        {
            request.sequence(request.sequenceId(), start, end);
        }
    }

    /**
     * Passes a custom parameter on to the model's backend (Triton's {@code TRITONSERVER_InferenceRequestSet*Parameter}:
     * a Python model reads it in {@code request.parameters()}).
     *
     * @param request the request
     * @param key     the key
     * @param value   a {@link String}, {@link Long}, {@link Boolean} or {@link Double}
     */
    public static void applyCustom(final InferenceRequest request, final String key, final Object value)
    {
        request.parameter(key, value);
    }

    /**
     * @param key a request parameter key
     * @return true for keys starting with {@code triton_}
     */
    public static boolean isTritonReserved(final String key)
    {
        return key.startsWith(TRITON_PREFIX);
    }

    /**
     * @param key a {@code triton_*} key
     * @return the INVALID_ARG error for it over HTTP, Triton's text first (server src/http_server.cc
     *         ParseJsonTritonParams)
     */
    public static InferenceException tritonReserved(final String key)
    {
        return invalid("parameter keys starting with 'triton_' are reserved for Triton usage and should not be "
            + "specified. (parameter '" + key + "')");
    }

    /**
     * @param key a {@code triton_*} key other than the ones gRPC allows
     * @return the INVALID_ARG error for it over gRPC, Triton's text first (server src/grpc/infer_handler.cc; the
     *         allowed keys are src/common.h TRITON_RESERVED_REQUEST_PARAMS)
     */
    public static InferenceException tritonReservedOverGrpc(final String key)
    {
        return invalid("parameter keys starting with 'triton_' are reserved for Triton usage. Only the following "
            + "keys starting with 'triton_' are allowed: triton_enable_empty_final_response (parameter '" + key
            + "')");
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
