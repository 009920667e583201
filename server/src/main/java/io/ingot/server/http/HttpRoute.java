package io.ingot.server.http;

/**
 * What an HTTP request asks for, as {@link HttpRouter} recognises it from method and path. Model versions are
 * {@link io.ingot.api.InferenceRequest#DEFAULT_VERSION} when the path names none.
 */
public sealed interface HttpRoute
{
    /**
     * {@code GET /v2/health/live} or {@code /v2/health/ready}.
     *
     * @param live true for liveness, false for readiness
     */
    record Health(boolean live) implements HttpRoute
    {
    }

    /** {@code GET /v2}. */
    record ServerMetadata() implements HttpRoute
    {
    }

    /**
     * {@code GET /v2/models/{m}[/versions/{v}]}.
     *
     * @param model   model name
     * @param version version
     */
    record ModelMetadata(String model, long version) implements HttpRoute
    {
    }

    /**
     * {@code GET /v2/models/{m}[/versions/{v}]/ready}.
     *
     * @param model   model name
     * @param version version
     */
    record ModelReady(String model, long version) implements HttpRoute
    {
    }

    /**
     * {@code GET /v2/models/{m}[/versions/{v}]/config}.
     *
     * @param model   model name
     * @param version version
     */
    record ModelConfig(String model, long version) implements HttpRoute
    {
    }

    /**
     * {@code POST /v2/models/{m}[/versions/{v}]/infer}.
     *
     * @param model   model name
     * @param version version
     */
    record Infer(String model, long version) implements HttpRoute
    {
    }

    /**
     * {@code POST /v2/models/{m}[/versions/{v}]/generate} or {@code …/generate_stream} (Triton's generate extension).
     *
     * @param model     model name
     * @param version   version
     * @param streaming true for {@code generate_stream} (server-sent events)
     */
    record Generate(String model, long version, boolean streaming) implements HttpRoute
    {
    }

    /**
     * {@code GET /v2/models[/{m}[/versions/{v}]]/stats}.
     *
     * @param model   model name, or {@code null} for every model
     * @param version version
     */
    record Statistics(String model, long version) implements HttpRoute
    {
    }

    /** {@code POST /v2/repository/index}. */
    record RepositoryIndex() implements HttpRoute
    {
    }

    /**
     * {@code POST /v2/repository/models/{m}/load} or {@code /unload}.
     *
     * @param model model name
     * @param load  true to load, false to unload
     */
    record RepositoryControl(String model, boolean load) implements HttpRoute
    {
    }

    /**
     * {@code GET /v2/systemsharedmemory[/region/{r}]/status}.
     *
     * @param region region name, or {@code null} for every region
     */
    record ShmStatus(String region) implements HttpRoute
    {
    }

    /**
     * {@code POST /v2/systemsharedmemory/region/{r}/register}.
     *
     * @param region region name
     */
    record ShmRegister(String region) implements HttpRoute
    {
    }

    /**
     * {@code POST /v2/systemsharedmemory[/region/{r}]/unregister}.
     *
     * @param region region name, or {@code null} for every region
     */
    record ShmUnregister(String region) implements HttpRoute
    {
    }

    /**
     * {@code /v2/cudasharedmemory/...}: recognised, answered per {@code action}.
     *
     * @param action {@code status}, {@code register} or {@code unregister}
     * @param region region name, or {@code null}
     */
    record CudaShm(String action, String region) implements HttpRoute
    {
    }

    /**
     * {@code GET/POST /v2/logging}: the logging extension.
     *
     * @param update true for POST (a body of settings to change)
     */
    record Logging(boolean update) implements HttpRoute
    {
    }

    /**
     * {@code GET/POST /v2[/models/{model}]/trace/setting}.
     *
     * @param model  the model, or {@code null} for the global setting
     * @param update whether it is a POST (an update)
     */
    record TraceSetting(String model, boolean update) implements HttpRoute
    {
    }

    /**
     * A Triton endpoint Ingot recognises but does not implement: 501.
     *
     * @param message what is not supported
     */
    record Unsupported(String message) implements HttpRoute
    {
    }

    /** No endpoint at this path: 404 {@code {"error":"Not Found"}}. */
    record NotFound() implements HttpRoute
    {
    }

    /** A known path with the wrong method: 405 {@code {"error":"Method Not Allowed"}}. */
    record MethodNotAllowed() implements HttpRoute
    {
    }
}
