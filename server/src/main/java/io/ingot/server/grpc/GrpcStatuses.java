package io.ingot.server.grpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.net.ClientText;

/** Maps Triton's error categories to gRPC status codes, as Triton's gRPC frontend does. */
public final class GrpcStatuses
{
    private GrpcStatuses()
    {
    }

    /**
     * @param code a Triton error category
     * @return the gRPC status code Triton uses for it
     */
    public static Status.Code code(final ErrorCode code)
    {
        return switch (code)
        {
            case INVALID_ARG -> Status.Code.INVALID_ARGUMENT;
            case NOT_FOUND -> Status.Code.NOT_FOUND;
            case UNAVAILABLE -> Status.Code.UNAVAILABLE;
            case INTERNAL -> Status.Code.INTERNAL;
            case UNSUPPORTED -> Status.Code.UNIMPLEMENTED;
            case ALREADY_EXISTS -> Status.Code.ALREADY_EXISTS;
            case CANCELLED -> Status.Code.CANCELLED;
            case UNKNOWN -> Status.Code.UNKNOWN;
        };
    }

    /**
     * @param failure an error
     * @return the status exception carrying its code and message, the message cut to
     *         {@link ClientText#MAX_MESSAGE_CHARS} characters (a longer one could exceed the client's limit on
     *         response headers and reach it as RESOURCE_EXHAUSTED instead)
     */
    public static StatusRuntimeException of(final InferenceException failure)
    {
        return Status.fromCode(code(failure.code())).withDescription(ClientText.message(failure.getMessage()))
            .asRuntimeException();
    }
}
