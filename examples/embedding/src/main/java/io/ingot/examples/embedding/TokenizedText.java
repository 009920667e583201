package io.ingot.examples.embedding;

/**
 * A text as MiniLM reads it: WordPiece ids from [CLS] to [SEP], padded with zeros to a length bucket (32, 64, 128,
 * 256) so that texts of similar length share a shape and Ingot's dynamic batcher can run them together, and the
 * attention mask (1 for the tokens, 0 for the padding).
 *
 * @param ids    token ids, padded
 * @param mask   1 for each token, 0 for padding
 * @param tokens how many of them are tokens
 */
public record TokenizedText(long[] ids, long[] mask, int tokens)
{
    /** @return the padded length */
    public int length()
    {
        return ids.length;
    }
}
