package io.ingot.examples.embedding;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The service's model gives the same embedding whichever way it reaches Ingot: in process, through the Java KServe
 * client over gRPC and over HTTP, and through the IPC client (what {@link TransportBenchmark} compares).
 */
class TransportsAgreeTest
{
    @Test
    void everyTransportGivesTheInProcessEmbedding() throws Exception
    {
        try (TextEncoder encoder = new TextEncoder(256);
             Transports transports = new Transports(Path.of(System.getProperty("ingot.model-repository")), "minilm"))
        {
            final TokenizedText tokens = encoder.encode("Four ways into one core.");
            final float[] expected = transports.models().get("in-process").embed(tokens).get(60, TimeUnit.SECONDS);
            assertEquals(384, expected.length);
            for (final Map.Entry<String, EmbeddingModel> model : transports.models().entrySet())
            {
                assertArrayEquals(expected, model.getValue().embed(tokens).get(60, TimeUnit.SECONDS), 1e-5f,
                    model.getKey());
            }
        }
    }
}
