package io.ingot.examples.embedding;

import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * MiniLM served by an Ingot on the same machine through its shared-memory transport (Ingot's Java IPC client,
 * {@code ring}): the inputs are written into the client's slab, the output read in place. The IPC client is
 * synchronous and single-threaded, so this model waits for each answer on the calling thread (the benchmark's only
 * thread); a service would keep one client per thread. Not thread-safe.
 */
final class IpcEmbeddingModel implements EmbeddingModel, AutoCloseable
{
    private final IpcClient client;
    private final String model;

    IpcEmbeddingModel(final String serverName, final String model)
    {
        this.client = IpcClient.connect(serverName);
        this.model = model;
    }

    @Override
    public CompletableFuture<float[]> embed(final TokenizedText tokens)
    {
        try (IpcTensor ids = client.allocate(IpcDataType.INT64, 1, tokens.length());
             IpcTensor mask = client.allocate(IpcDataType.INT64, 1, tokens.length());
             IpcTensor types = client.allocate(IpcDataType.INT64, 1, tokens.length()))
        {
            MemorySegment.copy(tokens.ids(), 0, ids.segment(), ValueLayout.JAVA_LONG, 0, tokens.length());
            MemorySegment.copy(tokens.mask(), 0, mask.segment(), ValueLayout.JAVA_LONG, 0, tokens.length());
            types.segment().fill((byte)0);
            final long id = client.submit(new IpcRequest(model).addInput("input_ids", ids)
                .addInput("attention_mask", mask).addInput("token_type_ids", types));
            try (IpcResponse response = client.await(id, Duration.ofSeconds(60)).throwIfError())
            {
                return CompletableFuture.completedFuture(MeanPooling.pool(
                    response.output("last_hidden_state").segment(), tokens.tokens()));
            }
        }
        catch (final RuntimeException failed)
        {
            return CompletableFuture.failedFuture(failed);
        }
    }

    @Override
    public void close()
    {
        client.close();
    }
}
