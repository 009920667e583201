package io.ingot.examples.embedding;

import java.util.concurrent.CompletableFuture;

/**
 * Where the service's embeddings are computed: all-MiniLM-L6-v2 served by Ingot, reached in process or over the
 * network. Implementations are thread-safe and never block the caller: the future completes on a thread of the
 * transport (Ingot's instance thread, the HTTP client's, gRPC's).
 */
public interface EmbeddingModel
{
    /**
     * @param tokens the text's token ids and attention mask
     * @return its embedding (mean-pooled over the tokens, L2-normalised), or an exception
     */
    CompletableFuture<float[]> embed(TokenizedText tokens);
}
