package io.ingot.server.grpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.ingot.server.access.ApiCategory;
import io.ingot.server.access.RestrictedApis;

import java.util.EnumMap;
import java.util.Map;

/**
 * Refuses calls to methods restricted with {@code --grpc-restricted-protocol} that lack the expected metadata, with
 * Triton's status and text: UNAVAILABLE "This protocol is restricted, expecting header 'triton-grpc-protocol-KEY'"
 * (grpc_server.cc, CommonCallData::Execute; infer_handler.cc for inference). The categories of the methods are
 * Triton's (grpc_server.cc, CommonHandler::Register*): ServerLive, ServerReady, ModelReady and the health check
 * are {@code health}, and so on.
 */
final class GrpcRestrictions implements ServerInterceptor
{
    private final RestrictedApis restricted;
    private final Map<ApiCategory, Metadata.Key<String>> keys = new EnumMap<>(ApiCategory.class);

    /**
     * @param restricted the restrictions
     */
    GrpcRestrictions(final RestrictedApis restricted)
    {
        this.restricted = restricted;
        for (final ApiCategory category : ApiCategory.values())
        {
            final RestrictedApis.Restriction restriction = restricted.of(category);
            if (restriction != null)
            {
                keys.put(category, Metadata.Key.of(restriction.header(), Metadata.ASCII_STRING_MARSHALLER));
            }
        }
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(final ServerCall<Q, R> call, final Metadata headers,
        final ServerCallHandler<Q, R> next)
    {
        final ApiCategory category = category(call.getMethodDescriptor().getFullMethodName());
        final RestrictedApis.Restriction restriction = restricted.of(category);
        if (restriction != null && !restriction.allows(headers.get(keys.get(category))))
        {
            call.close(Status.UNAVAILABLE.withDescription("This protocol is restricted, expecting header '"
                + restriction.header() + "'"), new Metadata());
            return new ServerCall.Listener<>()
            {
            };
        }
        return next.startCall(call, headers);
    }

    /**
     * @param fullMethodName {@code inference.GRPCInferenceService/ModelInfer}
     * @return its category, as Triton registers it
     */
    static ApiCategory category(final String fullMethodName)
    {
        final String method = fullMethodName.substring(fullMethodName.indexOf('/') + 1);
        if (fullMethodName.startsWith("grpc.health.v1.Health/"))
        {
            return ApiCategory.HEALTH;
        }
        return switch (method)
        {
            case "ServerLive", "ServerReady", "ModelReady" -> ApiCategory.HEALTH;
            case "ServerMetadata", "ModelMetadata" -> ApiCategory.METADATA;
            case "ModelConfig" -> ApiCategory.MODEL_CONFIG;
            case "ModelStatistics" -> ApiCategory.STATISTICS;
            case "TraceSetting" -> ApiCategory.TRACE;
            case "LogSettings" -> ApiCategory.LOGGING;
            case "RepositoryIndex", "RepositoryModelLoad", "RepositoryModelUnload" -> ApiCategory.MODEL_REPOSITORY;
            case "ModelInfer", "ModelStreamInfer" -> ApiCategory.INFERENCE;
            default -> method.contains("SharedMemory") ? ApiCategory.SHARED_MEMORY : null;
        };
    }
}
