package io.ingot.server.http;

import io.ingot.api.InferenceRequest;
import io.ingot.server.access.ApiCategory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps method and path to an {@link HttpRoute}, with Triton's endpoint set: path segments are split first and then
 * percent-decoded (so that a model name may contain an encoded '/'), a version must be decimal digits, a query
 * string is ignored, and a trailing '/' is not significant.
 */
public final class HttpRouter
{
    private static final HttpRoute NOT_FOUND = new HttpRoute.NotFound();
    private static final HttpRoute METHOD_NOT_ALLOWED = new HttpRoute.MethodNotAllowed();
    private static final String NAMED_REPOSITORY = "naming a repository in the path is not supported: use "
        + "/v2/repository/models/{model}/load or unload";

    private HttpRouter()
    {
    }

    /**
     * @param method the request method
     * @param uri    the request target ({@code /v2/models/m/infer?x=y})
     * @return the route
     */
    public static HttpRoute route(final HttpMethod method, final String uri)
    {
        final List<String> path = segments(uri);
        if (path == null || path.isEmpty() || !path.getFirst().equals("v2"))
        {
            return NOT_FOUND;
        }
        final boolean get = method.equals(HttpMethod.GET);
        final boolean post = method.equals(HttpMethod.POST);
        final int n = path.size();
        if (n == 1)
        {
            return get ? new HttpRoute.ServerMetadata() : METHOD_NOT_ALLOWED;
        }
        return switch (path.get(1))
        {
            case "health" -> n == 3 && (path.get(2).equals("live") || path.get(2).equals("ready"))
                ? (get ? new HttpRoute.Health(path.get(2).equals("live")) : METHOD_NOT_ALLOWED)
                : NOT_FOUND;
            case "models" -> models(path, get, post);
            case "repository" -> repository(path, post);
            case "systemsharedmemory" -> systemSharedMemory(path, get, post);
            case "cudasharedmemory" -> cudaSharedMemory(path, get, post);
            case "trace" -> n == 3 && path.get(2).equals("setting")
                ? (get || post ? new HttpRoute.TraceSetting(null, post) : METHOD_NOT_ALLOWED)
                : NOT_FOUND;
            case "logging" -> n == 2
                ? (get || post ? new HttpRoute.Logging(post) : METHOD_NOT_ALLOWED)
                : NOT_FOUND;
            default -> NOT_FOUND;
        };
    }

    /**
     * The restriction category of an endpoint, as Triton's handlers check it before anything else (also before the
     * method): health and model readiness are HEALTH, inference and generate INFERENCE, and so on.
     *
     * @param uri the request target of a route that is not {@link HttpRoute.NotFound}
     * @return its category, or {@code null} when it has none
     */
    public static ApiCategory category(final String uri)
    {
        final List<String> path = segments(uri);
        if (path == null || path.isEmpty())
        {
            return null;
        }
        if (path.size() == 1)
        {
            return ApiCategory.METADATA;
        }
        return switch (path.get(1))
        {
            case "health" -> ApiCategory.HEALTH;
            case "repository" -> ApiCategory.MODEL_REPOSITORY;
            case "systemsharedmemory", "cudasharedmemory" -> ApiCategory.SHARED_MEMORY;
            case "trace" -> ApiCategory.TRACE;
            case "logging" -> ApiCategory.LOGGING;
            case "models" -> path.size() <= 3
                ? (path.size() == 3 && path.get(2).equals("stats") ? ApiCategory.STATISTICS : ApiCategory.METADATA)
                : switch (path.getLast())
            {
                case "ready" -> ApiCategory.HEALTH;
                case "config" -> ApiCategory.MODEL_CONFIG;
                case "stats" -> ApiCategory.STATISTICS;
                case "infer", "generate", "generate_stream" -> ApiCategory.INFERENCE;
                case "setting" -> ApiCategory.TRACE;
                default -> ApiCategory.METADATA;
            };
            default -> null;
        };
    }

    private static HttpRoute models(final List<String> path, final boolean get, final boolean post)
    {
        final int n = path.size();
        if (n == 3 && path.get(2).equals("stats"))
        {
            return get ? new HttpRoute.Statistics(null, InferenceRequest.DEFAULT_VERSION) : METHOD_NOT_ALLOWED;
        }
        if (n < 3)
        {
            return NOT_FOUND;
        }
        final String model = path.get(2);
        int next = 3;
        long version = InferenceRequest.DEFAULT_VERSION;
        if (n >= 5 && path.get(3).equals("versions"))
        {
            version = parseVersion(path.get(4));
            if (version < 0)
            {
                return NOT_FOUND;
            }
            next = 5;
        }
        if (next == n)
        {
            return get ? new HttpRoute.ModelMetadata(model, version) : METHOD_NOT_ALLOWED;
        }
        if (n == next + 2 && path.get(next).equals("trace") && path.get(next + 1).equals("setting"))
        {
            return next == 3 ? (get || post ? new HttpRoute.TraceSetting(model, post) : METHOD_NOT_ALLOWED)
                : NOT_FOUND;
        }
        if (n != next + 1)
        {
            return NOT_FOUND;
        }
        return switch (path.get(next))
        {
            case "ready" -> get ? new HttpRoute.ModelReady(model, version) : METHOD_NOT_ALLOWED;
            case "config" -> get ? new HttpRoute.ModelConfig(model, version) : METHOD_NOT_ALLOWED;
            case "stats" -> get ? new HttpRoute.Statistics(model, version) : METHOD_NOT_ALLOWED;
            case "infer" -> post ? new HttpRoute.Infer(model, version) : METHOD_NOT_ALLOWED;
            case "generate", "generate_stream" -> post
                ? new HttpRoute.Generate(model, version, path.get(next).equals("generate_stream")) : METHOD_NOT_ALLOWED;
            default -> NOT_FOUND;
        };
    }

    private static HttpRoute repository(final List<String> path, final boolean post)
    {
        final int n = path.size();
        if (n == 3 && path.get(2).equals("index"))
        {
            return post ? new HttpRoute.RepositoryIndex() : METHOD_NOT_ALLOWED;
        }
        if (n == 5 && path.get(2).equals("models") && (path.get(4).equals("load") || path.get(4).equals("unload")))
        {
            return post ? new HttpRoute.RepositoryControl(path.get(3), path.get(4).equals("load"))
                : METHOD_NOT_ALLOWED;
        }
        if (n == 6 && path.get(3).equals("models") && (path.get(5).equals("load") || path.get(5).equals("unload")))
        {
            return post ? new HttpRoute.Unsupported(NAMED_REPOSITORY) : METHOD_NOT_ALLOWED;
        }
        return NOT_FOUND;
    }

    private static HttpRoute systemSharedMemory(final List<String> path, final boolean get, final boolean post)
    {
        final int n = path.size();
        if (n == 3)
        {
            return switch (path.get(2))
            {
                case "status" -> get ? new HttpRoute.ShmStatus(null) : METHOD_NOT_ALLOWED;
                case "unregister" -> post ? new HttpRoute.ShmUnregister(null) : METHOD_NOT_ALLOWED;
                default -> NOT_FOUND;
            };
        }
        if (n == 5 && path.get(2).equals("region"))
        {
            final String region = path.get(3);
            return switch (path.get(4))
            {
                case "status" -> get ? new HttpRoute.ShmStatus(region) : METHOD_NOT_ALLOWED;
                case "register" -> post ? new HttpRoute.ShmRegister(region) : METHOD_NOT_ALLOWED;
                case "unregister" -> post ? new HttpRoute.ShmUnregister(region) : METHOD_NOT_ALLOWED;
                default -> NOT_FOUND;
            };
        }
        return NOT_FOUND;
    }

    private static HttpRoute cudaSharedMemory(final List<String> path, final boolean get, final boolean post)
    {
        final int n = path.size();
        final String action = path.get(n - 1);
        final boolean known = action.equals("status") || action.equals("register") || action.equals("unregister");
        if (!known || !(n == 3 && !action.equals("register") || n == 5 && path.get(2).equals("region")))
        {
            return NOT_FOUND;
        }
        final boolean allowed = action.equals("status") ? get : post;
        return allowed ? new HttpRoute.CudaShm(action, n == 5 ? path.get(3) : null) : METHOD_NOT_ALLOWED;
    }

    private static long parseVersion(final String text)
    {
        if (text.isEmpty())
        {
            return -1;
        }
        for (int i = 0; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return -1;
            }
        }
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException tooLarge)
        {
            return -1;
        }
    }

    /** @return the decoded path segments, or {@code null} when the path is malformed. */
    private static List<String> segments(final String uri)
    {
        int end = uri.indexOf('?');
        if (end < 0)
        {
            end = uri.length();
        }
        final int hash = uri.indexOf('#');
        if (hash >= 0 && hash < end)
        {
            end = hash;
        }
        if (end == 0 || uri.charAt(0) != '/')
        {
            return null;
        }
        final List<String> segments = new ArrayList<>(6);
        int start = 1;
        while (start <= end)
        {
            int slash = uri.indexOf('/', start);
            if (slash < 0 || slash > end)
            {
                slash = end;
            }
            if (slash > start)
            {
                try
                {
                    // '+' is a literal in a path (only forms decode it as a space).
                    final String raw = uri.substring(start, slash).replace("+", "%2B");
                    segments.add(QueryStringDecoder.decodeComponent(raw));
                }
                catch (final IllegalArgumentException badEscape)
                {
                    return null;
                }
            }
            else if (slash < end)
            {
                return null;
            }
            start = slash + 1;
        }
        return segments;
    }
}
