package io.ingot.server.grpc;

import io.grpc.stub.StreamObserver;
import io.ingot.api.InferenceCore;
import io.ingot.protocol.grpc.health.HealthCheckRequest;
import io.ingot.protocol.grpc.health.HealthCheckResponse;
import io.ingot.protocol.grpc.health.HealthGrpc;

/**
 * {@code grpc.health.v1.Health/Check} as Triton answers it: SERVING while the server is ready, NOT_SERVING otherwise,
 * whatever service is named.
 */
public final class GrpcHealthService extends HealthGrpc.HealthImplBase
{
    private final InferenceCore core;

    /**
     * @param core the core whose readiness is reported
     */
    public GrpcHealthService(final InferenceCore core)
    {
        this.core = core;
    }

    @Override
    public void check(final HealthCheckRequest request, final StreamObserver<HealthCheckResponse> observer)
    {
        final HealthCheckResponse.ServingStatus status;
        try
        {
            status = core.isReady() ? HealthCheckResponse.ServingStatus.SERVING
                : HealthCheckResponse.ServingStatus.NOT_SERVING;
        }
        catch (final RuntimeException failure)
        {
            observer.onNext(HealthCheckResponse.newBuilder()
                .setStatus(HealthCheckResponse.ServingStatus.NOT_SERVING).build());
            observer.onCompleted();
            return;
        }
        observer.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
        observer.onCompleted();
    }
}
