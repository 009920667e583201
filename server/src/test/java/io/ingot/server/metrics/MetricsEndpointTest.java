package io.ingot.server.metrics;

import io.ingot.metrics.Metric;
import io.ingot.metrics.MetricFamily;
import io.ingot.metrics.MetricKind;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET :metrics/metrics}: Triton's metric names, types and labels, fed by the core's statistics. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsEndpointTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private HttpResponse<byte[]> scrape(final String path)
    {
        return server.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.frontends().metricsPort()
            + path)).GET().build());
    }

    private static long value(final String text, final String series)
    {
        final Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
        assertTrue(matcher.find(), () -> "no series " + series + " in\n" + text);
        return (long) Double.parseDouble(matcher.group(1));
    }

    @Test
    void exposesTritonsPerModelMetrics()
    {
        final String before = new String(scrape("/metrics").body(), StandardCharsets.UTF_8);
        final String success = "nv_inference_request_success{model=\"add_sub_int\",version=\"1\"}";
        final long successBefore = value(before, success);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(200, server.send(new InferBody()
                .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
                .binaryInput("INPUT1", "INT32", new long[] {4}, InferBody.int32(1, 1, 1, 1))
                .request(server.httpUrl() + "/v2/models/add_sub_int/infer")).statusCode());
        }
        assertEquals(400, server.send(new InferBody()
            .binaryInput("INPUT0", "INT32", new long[] {4}, InferBody.int32(1, 2, 3, 4))
            .request(server.httpUrl() + "/v2/models/add_sub_int/infer")).statusCode());

        final HttpResponse<byte[]> response = scrape("/metrics");
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElseThrow().startsWith("text/plain"));
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(successBefore + 3, value(text, success));
        assertTrue(text.contains("# TYPE nv_inference_request_success counter\n"), text);
        assertTrue(text.contains("# TYPE nv_inference_pending_request_count gauge\n"), text);
        assertTrue(text.contains("# TYPE nv_inference_request_failure counter\n"), text);
        assertTrue(text.contains("# TYPE nv_inference_compute_infer_duration_us counter\n"), text);
        assertTrue(value(text, "nv_inference_count{model=\"add_sub_int\",version=\"1\"}") >= 3);
        assertTrue(value(text, "nv_inference_exec_count{model=\"add_sub_int\",version=\"1\"}") >= 3);
        assertTrue(value(text, "nv_inference_request_duration_us{model=\"add_sub_int\",version=\"1\"}") > 0);
        for (final String reason : new String[] {"REJECTED", "CANCELED", "BACKEND", "OTHER"})
        {
            // Label names in sorted order, as prometheus-cpp (Triton) writes them too.
            value(text, "nv_inference_request_failure{model=\"add_sub_int\",reason=\"" + reason
                + "\",version=\"1\"}");
        }
        assertEquals(0, value(text, "nv_inference_pending_request_count{model=\"add_sub_int\",version=\"1\"}"));
        assertTrue(!text.contains("_total"), "Triton's counter names have no _total suffix");

        assertEquals(200, scrape("/metrics/").statusCode());
        assertEquals(404, scrape("/other").statusCode());
    }

    @Test
    void writesTheFamiliesTheModelsDefinedAfterTritonsOwn()
    {
        final MetricFamily family = server.core().customMetrics().family("endpoint_events_total", "events",
            MetricKind.COUNTER);
        final Metric metric = family.metric(Map.of("model", "m"), null);
        metric.increment(4);
        final String text = new String(scrape("/metrics").body(), StandardCharsets.UTF_8);
        assertTrue(text.indexOf("# TYPE endpoint_events_total counter\nendpoint_events_total{model=\"m\"} 4\n")
            > text.indexOf("nv_inference_request_success"), text);
        metric.release();
        family.release();
        assertTrue(!new String(scrape("/metrics").body(), StandardCharsets.UTF_8).contains("endpoint_events_total"),
            "gone with its last holder");
    }
}
