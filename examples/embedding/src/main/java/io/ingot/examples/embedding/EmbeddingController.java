package io.ingot.examples.embedding;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /embeddings {"text": "..."}} → {@code {"model": "all-MiniLM-L6-v2", "tokens": N, "embedding": [384
 * floats]}}. The handler tokenizes on the request thread and returns a future: Spring MVC releases the servlet thread
 * (an asynchronous request) and writes the answer when the model completes it, so no thread is held while the model
 * runs. A bad request is answered 400 ({@link ApiErrors}).
 */
@RestController
public class EmbeddingController
{
    private final TextEncoder encoder;
    private final EmbeddingModel model;

    /**
     * @param encoder the tokenizer
     * @param model   where embeddings are computed
     */
    public EmbeddingController(final TextEncoder encoder, final EmbeddingModel model)
    {
        this.encoder = encoder;
        this.model = model;
    }

    /** The request body. @param text the text to embed */
    public record EmbeddingRequest(String text)
    {
    }

    /**
     * The answer.
     *
     * @param model     the model's name
     * @param tokens    how many tokens the text was (after truncation)
     * @param embedding the unit-length embedding
     */
    public record EmbeddingResponse(String model, int tokens, float[] embedding)
    {
    }

    /**
     * @param request the text
     * @return its embedding, when the model has computed it
     */
    @PostMapping(path = "/embeddings", consumes = "application/json", produces = "application/json")
    public CompletableFuture<EmbeddingResponse> embed(@RequestBody final EmbeddingRequest request)
    {
        if (request == null)
        {
            throw new IllegalArgumentException("the body must be a JSON object with a 'text' string");
        }
        final TokenizedText tokens = encoder.encode(request.text());
        return model.embed(tokens).thenApply(vector -> new EmbeddingResponse("all-MiniLM-L6-v2", tokens.tokens(),
            vector));
    }
}
