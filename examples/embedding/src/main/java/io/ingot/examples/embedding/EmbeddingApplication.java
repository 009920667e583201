package io.ingot.examples.embedding;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A sentence-embedding service: {@code POST /embeddings {"text": "..."}} answers all-MiniLM-L6-v2's 384-float
 * embedding of the text, computed by Ingot in this JVM (or, with {@code ingot.transport=grpc|http}, by a remote
 * Ingot or Triton). Run with {@code java --enable-native-access=ALL-UNNAMED}, Ingot's one JVM flag.
 */
@SpringBootApplication
public class EmbeddingApplication
{
    /** @param args Spring Boot's arguments, e.g. {@code --ingot.model-repository=examples/models} */
    public static void main(final String[] args)
    {
        SpringApplication.run(EmbeddingApplication.class, args);
    }
}
