package io.ingot.benchmarks.perf;

/**
 * Opens gRPC targets. The KServe v2 gRPC client needs the stubs generated from the server module's
 * {@code grpc_service.proto}, which this branch does not have yet.
 */
final class GrpcTargets
{
    private GrpcTargets()
    {
    }

    /**
     * @param url     host:port
     * @param model   the model
     * @param version its version
     * @return the target
     * @throws PerfException always, until the gRPC stubs are available
     */
    static LoadTarget open(final String url, final String model, final String version)
    {
        throw PerfException.usage("-i grpc is not available in this build: the KServe v2 gRPC stubs of the server"
            + " module are missing; use -i http");
    }
}
