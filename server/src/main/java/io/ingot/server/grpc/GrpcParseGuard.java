package io.ingot.server.grpc;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.ingot.server.net.RateLimitedLog;
import io.ingot.server.net.ClientText;

import java.io.InputStream;

/**
 * Answers a request message that cannot be parsed with INVALID_ARGUMENT, naming the message type and what the parser
 * found, and logs such refusals once per interval. Without it grpc-java lets the parser's exception escape the
 * call: the client sees UNKNOWN "Application error processing RPC" and the server logs a stack trace per message
 * (issue 14: one client sending one-byte messages grew the log by 38.7 MB in 10 s).
 *
 * <p>How: every method of a service is re-bound with a request marshaller that never throws; it hands the handler
 * either the parsed message or the parse failure, and the failure closes the call before the service sees it. On a
 * stream the service is told the call was cancelled, so it stops sending.
 */
final class GrpcParseGuard
{
    private GrpcParseGuard()
    {
    }

    /**
     * @param service a service
     * @param log     where refusals are reported
     * @return the same service, with unparseable requests refused
     */
    static ServerServiceDefinition guard(final ServerServiceDefinition service, final RateLimitedLog log)
    {
        final ServerServiceDefinition.Builder builder = ServerServiceDefinition.builder(
            service.getServiceDescriptor().getName());
        for (final ServerMethodDefinition<?, ?> method : service.getMethods())
        {
            builder.addMethod(guarded(method, log));
        }
        return builder.build();
    }

    private static <Q, R> ServerMethodDefinition<Parsed<Q>, R> guarded(final ServerMethodDefinition<Q, R> definition,
        final RateLimitedLog log)
    {
        final MethodDescriptor<Q, R> method = definition.getMethodDescriptor();
        final MethodDescriptor<Parsed<Q>, R> tolerant = method.toBuilder(
            new TolerantMarshaller<>(method.getRequestMarshaller()), method.getResponseMarshaller()).build();
        final ServerCallHandler<Q, R> handler = definition.getServerCallHandler();
        return ServerMethodDefinition.create(tolerant, (call, headers) ->
            new GuardedListener<>(call, handler.startCall(new RetypedCall<>(call, method), headers), method, log));
    }

    /**
     * A parsed request, or why it could not be parsed.
     *
     * @param message the message, or {@code null}
     * @param failure why parsing failed, or {@code null}
     */
    private record Parsed<Q>(Q message, String failure)
    {
    }

    /** A request marshaller that returns parse failures instead of throwing them. */
    private static final class TolerantMarshaller<Q> implements MethodDescriptor.Marshaller<Parsed<Q>>
    {
        private final MethodDescriptor.Marshaller<Q> parser;

        TolerantMarshaller(final MethodDescriptor.Marshaller<Q> parser)
        {
            this.parser = parser;
        }

        @Override
        public InputStream stream(final Parsed<Q> value)
        {
            return parser.stream(value.message());
        }

        @Override
        public Parsed<Q> parse(final InputStream stream)
        {
            try
            {
                return new Parsed<>(parser.parse(stream), null);
            }
            catch (final RuntimeException malformed)
            {
                final Throwable cause = malformed.getCause() != null ? malformed.getCause() : malformed;
                return new Parsed<>(null, String.valueOf(cause.getMessage()));
            }
        }
    }

    /** Hands parsed messages to the service's listener; refuses a failure and keeps the service out of it. */
    private static final class GuardedListener<Q, R> extends ServerCall.Listener<Parsed<Q>>
    {
        private final ServerCall<Parsed<Q>, R> call;
        private final ServerCall.Listener<Q> service;
        private final MethodDescriptor<Q, R> method;
        private final RateLimitedLog log;
        private boolean refused;

        GuardedListener(final ServerCall<Parsed<Q>, R> call, final ServerCall.Listener<Q> service,
            final MethodDescriptor<Q, R> method, final RateLimitedLog log)
        {
            this.call = call;
            this.service = service;
            this.method = method;
            this.log = log;
        }

        @Override
        public void onMessage(final Parsed<Q> parsed)
        {
            if (refused)
            {
                return;
            }
            if (parsed.failure() == null)
            {
                service.onMessage(parsed.message());
                return;
            }
            refused = true;
            final String type = method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> proto
                && proto.getMessagePrototype() != null ? proto.getMessagePrototype().getClass().getSimpleName()
                : "request";
            final String reason = "unable to parse the " + type + " message of " + method.getFullMethodName() + ": "
                + ClientText.name(parsed.failure());
            log.log("gRPC refused an unparseable message with INVALID_ARGUMENT: " + reason);
            call.close(Status.INVALID_ARGUMENT.withDescription(reason), new Metadata());
            service.onCancel();
        }

        @Override
        public void onHalfClose()
        {
            if (!refused)
            {
                service.onHalfClose();
            }
        }

        @Override
        public void onCancel()
        {
            if (!refused)
            {
                service.onCancel();
            }
        }

        @Override
        public void onComplete()
        {
            if (!refused)
            {
                service.onComplete();
            }
        }

        @Override
        public void onReady()
        {
            if (!refused)
            {
                service.onReady();
            }
        }
    }

    /** The call as the service's handler expects it: the same call, typed with the service's own request type. */
    private static final class RetypedCall<Q, R> extends ServerCall<Q, R>
    {
        private final ServerCall<?, R> call;
        private final MethodDescriptor<Q, R> method;

        RetypedCall(final ServerCall<?, R> call, final MethodDescriptor<Q, R> method)
        {
            this.call = call;
            this.method = method;
        }

        @Override
        public void request(final int numMessages)
        {
            call.request(numMessages);
        }

        @Override
        public void sendHeaders(final Metadata headers)
        {
            call.sendHeaders(headers);
        }

        @Override
        public void sendMessage(final R message)
        {
            call.sendMessage(message);
        }

        @Override
        public boolean isReady()
        {
            return call.isReady();
        }

        @Override
        public void close(final Status status, final Metadata trailers)
        {
            call.close(status, trailers);
        }

        @Override
        public boolean isCancelled()
        {
            return call.isCancelled();
        }

        @Override
        public void setMessageCompression(final boolean enabled)
        {
            call.setMessageCompression(enabled);
        }

        @Override
        public void setCompression(final String compressor)
        {
            call.setCompression(compressor);
        }

        @Override
        public void setOnReadyThreshold(final int numBytes)
        {
            call.setOnReadyThreshold(numBytes);
        }

        @Override
        public SecurityLevel getSecurityLevel()
        {
            return call.getSecurityLevel();
        }

        @Override
        public Attributes getAttributes()
        {
            return call.getAttributes();
        }

        @Override
        public String getAuthority()
        {
            return call.getAuthority();
        }

        @Override
        public MethodDescriptor<Q, R> getMethodDescriptor()
        {
            return method;
        }
    }
}
