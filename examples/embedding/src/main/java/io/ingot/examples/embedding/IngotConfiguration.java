package io.ingot.examples.embedding;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.client.ClientOptions;
import io.ingot.client.InferenceClient;
import io.ingot.client.grpc.GrpcInferenceServerClient;
import io.ingot.client.http.HttpInferenceServerClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;

/**
 * Ingot as Spring beans: with {@code ingot.transport=in-process} (the default) one {@link InferenceCore} for the
 * application's lifetime, loading only the service's model from {@code ingot.model-repository} and closed by Spring
 * at shutdown (every request in flight answered first); with {@code grpc} or {@code http} a KServe v2 client to
 * {@code ingot.url} instead.
 */
@Configuration(proxyBeanMethods = false)
public class IngotConfiguration
{
    /**
     * @param repository the model repository
     * @param model      the model to load from it
     * @return the running core
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "ingot.transport", havingValue = "in-process", matchIfMissing = true)
    public InferenceCore inferenceCore(@Value("${ingot.model-repository}") final String repository,
        @Value("${ingot.model}") final String model)
    {
        return InferenceCore.open(CoreOptions.builder().modelRepository(Path.of(repository))
            .controlMode(ModelControlMode.EXPLICIT).startupModel(model).build());
    }

    /** @return the model, run by the core in this JVM */
    @Bean
    @ConditionalOnProperty(name = "ingot.transport", havingValue = "in-process", matchIfMissing = true)
    public EmbeddingModel inProcessModel(final InferenceCore core, @Value("${ingot.model}") final String model)
    {
        return new InProcessEmbeddingModel(core, model);
    }

    /** @return a KServe v2 client of the transport configured */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "ingot.transport", havingValue = "grpc")
    public InferenceClient grpcClient(@Value("${ingot.url}") final String url)
    {
        return new GrpcInferenceServerClient(url, false, ClientOptions.DEFAULTS);
    }

    /** @return a KServe v2 client over HTTP */
    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "ingot.transport", havingValue = "http")
    public InferenceClient httpClient(@Value("${ingot.url}") final String url)
    {
        return new HttpInferenceServerClient(url, false, ClientOptions.DEFAULTS);
    }

    /** @return the model, run by the remote server the client reaches */
    @Bean
    @ConditionalOnExpression("'${ingot.transport:in-process}' != 'in-process'")
    public EmbeddingModel remoteModel(final InferenceClient client, @Value("${ingot.model}") final String model)
    {
        return new KServeEmbeddingModel(client, model);
    }

    /** @return the tokenizer */
    @Bean(destroyMethod = "close")
    public TextEncoder textEncoder(@Value("${ingot.max-tokens}") final int maxTokens)
    {
        return new TextEncoder(maxTokens);
    }
}
