package io.ingot.examples.embedding;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.client.ClientOptions;
import io.ingot.client.grpc.GrpcInferenceServerClient;
import io.ingot.client.http.HttpInferenceServerClient;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.server.ipc.IpcServer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One core serving MiniLM, reached four ways from this JVM: in process (the service's own path), through Ingot's
 * Java KServe client over gRPC and over HTTP (the server module's frontends on ephemeral loopback ports), and through
 * the shared-memory IPC client. Closes everything it started, clients first.
 */
final class Transports implements AutoCloseable
{
    private final InferenceCore core;
    private final ServerFrontends frontends;
    private final IpcServer ipc;
    private final GrpcInferenceServerClient grpc;
    private final HttpInferenceServerClient http;
    private final IpcEmbeddingModel ipcModel;
    private final Map<String, EmbeddingModel> models = new LinkedHashMap<>();

    Transports(final Path repository, final String model)
    {
        core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).startupModel(model).build());
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, -1));
        final String ipcName = "embed-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 100_000;
        ipc = IpcServer.start(core, ipcName);
        grpc = new GrpcInferenceServerClient("127.0.0.1:" + frontends.grpcPort(), false, ClientOptions.DEFAULTS);
        http = new HttpInferenceServerClient("127.0.0.1:" + frontends.httpPort(), false, ClientOptions.DEFAULTS);
        ipcModel = new IpcEmbeddingModel(ipcName, model);
        models.put("in-process", new InProcessEmbeddingModel(core, model));
        models.put("grpc", new KServeEmbeddingModel(grpc, model));
        models.put("http", new KServeEmbeddingModel(http, model));
        models.put("ipc", ipcModel);
    }

    /** @return the four ways in, by name, in-process first */
    Map<String, EmbeddingModel> models()
    {
        return models;
    }

    @Override
    public void close()
    {
        ipcModel.close();
        grpc.close();
        http.close();
        ipc.close();
        frontends.close();
        core.close();
    }
}
