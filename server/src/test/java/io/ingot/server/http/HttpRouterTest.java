package io.ingot.server.http;

import io.ingot.api.InferenceRequest;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class HttpRouterTest
{
    private static final HttpMethod GET = HttpMethod.GET;
    private static final HttpMethod POST = HttpMethod.POST;
    private static final long DEFAULT = InferenceRequest.DEFAULT_VERSION;

    @Test
    void recognisesEveryEndpoint()
    {
        assertEquals(new HttpRoute.Health(true), HttpRouter.route(GET, "/v2/health/live"));
        assertEquals(new HttpRoute.Health(false), HttpRouter.route(GET, "/v2/health/ready"));
        assertEquals(new HttpRoute.ServerMetadata(), HttpRouter.route(GET, "/v2"));
        assertEquals(new HttpRoute.ModelMetadata("m", DEFAULT), HttpRouter.route(GET, "/v2/models/m"));
        assertEquals(new HttpRoute.ModelMetadata("m", 3), HttpRouter.route(GET, "/v2/models/m/versions/3"));
        assertEquals(new HttpRoute.ModelReady("m", 2), HttpRouter.route(GET, "/v2/models/m/versions/2/ready"));
        assertEquals(new HttpRoute.ModelConfig("m", DEFAULT), HttpRouter.route(GET, "/v2/models/m/config"));
        assertEquals(new HttpRoute.Infer("m", DEFAULT), HttpRouter.route(POST, "/v2/models/m/infer"));
        assertEquals(new HttpRoute.Infer("m", 7), HttpRouter.route(POST, "/v2/models/m/versions/7/infer"));
        assertEquals(new HttpRoute.Statistics(null, DEFAULT), HttpRouter.route(GET, "/v2/models/stats"));
        assertEquals(new HttpRoute.Statistics("m", DEFAULT), HttpRouter.route(GET, "/v2/models/m/stats"));
        assertEquals(new HttpRoute.Statistics("m", 1), HttpRouter.route(GET, "/v2/models/m/versions/1/stats"));
        assertEquals(new HttpRoute.RepositoryIndex(), HttpRouter.route(POST, "/v2/repository/index"));
        assertEquals(new HttpRoute.RepositoryControl("m", true),
            HttpRouter.route(POST, "/v2/repository/models/m/load"));
        assertEquals(new HttpRoute.RepositoryControl("m", false),
            HttpRouter.route(POST, "/v2/repository/models/m/unload"));
        assertEquals(new HttpRoute.ShmStatus(null), HttpRouter.route(GET, "/v2/systemsharedmemory/status"));
        assertEquals(new HttpRoute.ShmStatus("r"), HttpRouter.route(GET, "/v2/systemsharedmemory/region/r/status"));
        assertEquals(new HttpRoute.ShmRegister("r"),
            HttpRouter.route(POST, "/v2/systemsharedmemory/region/r/register"));
        assertEquals(new HttpRoute.ShmUnregister("r"),
            HttpRouter.route(POST, "/v2/systemsharedmemory/region/r/unregister"));
        assertEquals(new HttpRoute.ShmUnregister(null), HttpRouter.route(POST, "/v2/systemsharedmemory/unregister"));
        assertEquals(new HttpRoute.CudaShm("status", null), HttpRouter.route(GET, "/v2/cudasharedmemory/status"));
        assertEquals(new HttpRoute.CudaShm("register", "g"),
            HttpRouter.route(POST, "/v2/cudasharedmemory/region/g/register"));
        assertEquals(new HttpRoute.TraceSetting(null, false), HttpRouter.route(GET, "/v2/trace/setting"));
        assertEquals(new HttpRoute.TraceSetting("m", true), HttpRouter.route(POST, "/v2/models/m/trace/setting"));
        assertEquals(new HttpRoute.Logging(true), HttpRouter.route(POST, "/v2/logging"));
        assertEquals(new HttpRoute.Logging(false), HttpRouter.route(GET, "/v2/logging"));
        assertEquals(new HttpRoute.Generate("m", -1, false), HttpRouter.route(POST, "/v2/models/m/generate"));
        assertEquals(new HttpRoute.Generate("m", 3, true),
            HttpRouter.route(POST, "/v2/models/m/versions/3/generate_stream"));
        assertInstanceOf(HttpRoute.MethodNotAllowed.class, HttpRouter.route(GET, "/v2/models/m/generate_stream"));
    }

    @Test
    void unknownPathsAreNotFoundAndWrongMethodsNotAllowed()
    {
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v1/models/m"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/models/m/versions/x/ready"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/models/m/versions/-1"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/models/m/nothing"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/health"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2//models"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/models/m/versions/1/trace/setting"));
        assertInstanceOf(HttpRoute.MethodNotAllowed.class, HttpRouter.route(GET, "/v2/models/m/infer"));
        assertInstanceOf(HttpRoute.MethodNotAllowed.class, HttpRouter.route(POST, "/v2/health/live"));
        assertInstanceOf(HttpRoute.MethodNotAllowed.class, HttpRouter.route(GET, "/v2/repository/index"));
        assertInstanceOf(HttpRoute.MethodNotAllowed.class, HttpRouter.route(HttpMethod.DELETE, "/v2"));
    }

    @Test
    void decodesNameSegmentsAndIgnoresQueriesAndTrailingSlashes()
    {
        assertEquals(new HttpRoute.ModelMetadata("a/b c+d", DEFAULT), HttpRouter.route(GET, "/v2/models/a%2Fb%20c+d"));
        assertEquals(new HttpRoute.Infer("m", DEFAULT), HttpRouter.route(POST, "/v2/models/m/infer?x=1"));
        assertEquals(new HttpRoute.Health(true), HttpRouter.route(GET, "/v2/health/live/"));
        assertInstanceOf(HttpRoute.NotFound.class, HttpRouter.route(GET, "/v2/models/%zz"));
    }
}
