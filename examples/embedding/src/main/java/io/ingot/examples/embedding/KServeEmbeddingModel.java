package io.ingot.examples.embedding;

import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;
import io.ingot.client.InferenceClient;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * MiniLM served by a remote Ingot (or Triton) over the KServe v2 protocol, through Ingot's Java client over gRPC or
 * HTTP ({@code inferAsync}: no thread waits while the call is in flight). Thread-safe.
 */
public final class KServeEmbeddingModel implements EmbeddingModel
{
    private static final List<InferRequestedOutput> OUTPUTS = List.of(new InferRequestedOutput("last_hidden_state"));

    private final InferenceClient client;
    private final String model;

    /**
     * @param client the KServe v2 client (gRPC or HTTP)
     * @param model  the model's name on the server
     */
    public KServeEmbeddingModel(final InferenceClient client, final String model)
    {
        this.client = client;
        this.model = model;
    }

    @Override
    public CompletableFuture<float[]> embed(final TokenizedText tokens)
    {
        final long[] shape = {1, tokens.length()};
        final List<InferInput> inputs = List.of(
            new InferInput("input_ids", shape, "INT64").setData(tokens.ids()),
            new InferInput("attention_mask", shape, "INT64").setData(tokens.mask()),
            new InferInput("token_type_ids", shape, "INT64").setData(new long[tokens.length()]));
        return client.inferAsync(model, inputs, OUTPUTS, InferOptions.NONE).thenApply(result ->
            MeanPooling.pool(MemorySegment.ofBuffer(result.rawData("last_hidden_state")), tokens.tokens()));
    }
}
