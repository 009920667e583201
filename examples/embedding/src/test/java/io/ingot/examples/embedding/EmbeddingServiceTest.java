package io.ingot.examples.embedding;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service as a client sees it: the whole Spring Boot application on a random port, Ingot in process serving
 * all-MiniLM-L6-v2 from {@code examples/models}, plain HTTP calls.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EmbeddingServiceTest
{
    private final HttpClient http = HttpClient.newHttpClient();

    @Value("${local.server.port}")
    private int port;

    @Test
    void similarSentencesGetCloserEmbeddingsThanUnrelatedOnes() throws Exception
    {
        final float[] eating = embed("A man is eating food.");
        final float[] meal = embed("A man is eating a piece of bread.");
        final float[] plane = embed("The plane is landing at the airport.");
        assertEquals(384, eating.length);
        assertEquals(1.0, dot(eating, eating), 1e-4, "unit length");
        assertTrue(dot(eating, meal) > dot(eating, plane) + 0.2, "cosine eating/meal " + dot(eating, meal)
            + " should exceed eating/plane " + dot(eating, plane));
    }

    @Test
    void aBadRequestIs400AndTheServiceKeepsServing() throws Exception
    {
        final HttpResponse<String> empty = post("{}", "application/json");
        assertEquals(400, empty.statusCode(), empty.body());
        assertEquals("'text' must be a non-empty string", json(empty.body()).get("error").getAsString());

        final HttpResponse<String> blank = post("{\"text\": \"   \"}", "application/json");
        assertEquals(400, blank.statusCode(), blank.body());

        final HttpResponse<String> broken = post("{\"text\": ", "application/json");
        assertEquals(400, broken.statusCode(), broken.body());
        assertTrue(json(broken.body()).get("error").getAsString().startsWith(
            "the body must be a JSON object with a 'text' string"), broken.body());

        final HttpResponse<String> notJson = post("A man is eating food.", "text/plain");
        assertEquals(415, notJson.statusCode(), notJson.body());

        assertEquals(384, embed("Still serving after four bad requests.").length);
    }

    @Test
    void concurrentRequestsAllCompleteWithTheSameEmbeddingForTheSameText() throws Exception
    {
        final float[] alone = embed("Ingot batches concurrent requests.");
        final List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 24; i++)
        {
            calls.add(http.sendAsync(request("{\"text\": \"Ingot batches concurrent requests.\"}", "application/json"),
                HttpResponse.BodyHandlers.ofString()));
        }
        for (final CompletableFuture<HttpResponse<String>> call : calls)
        {
            final HttpResponse<String> response = call.get(120, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode(), response.body());
            final float[] together = vector(json(response.body()).getAsJsonArray("embedding"));
            assertArrayEquals(alone, together, 1e-4f, "batched with others, the same embedding as alone");
        }
    }

    private float[] embed(final String text) throws Exception
    {
        final JsonObject body = new JsonObject();
        body.addProperty("text", text);
        final HttpResponse<String> response = post(body.toString(), "application/json");
        assertEquals(200, response.statusCode(), response.body());
        final JsonObject answer = json(response.body());
        assertEquals("all-MiniLM-L6-v2", answer.get("model").getAsString());
        return vector(answer.getAsJsonArray("embedding"));
    }

    private HttpResponse<String> post(final String body, final String contentType) throws Exception
    {
        return http.send(request(body, contentType), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(final String body, final String contentType)
    {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/embeddings"))
            .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static JsonObject json(final String text)
    {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static float[] vector(final JsonArray array)
    {
        final float[] values = new float[array.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = array.get(i).getAsFloat();
        }
        return values;
    }

    static double dot(final float[] a, final float[] b)
    {
        double sum = 0;
        for (int i = 0; i < a.length; i++)
        {
            sum += (double)a[i] * b[i];
        }
        return sum;
    }
}
