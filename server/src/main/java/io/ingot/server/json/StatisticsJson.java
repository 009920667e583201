package io.ingot.server.json;

import io.ingot.api.BatchStatistics;
import io.ingot.api.InferStatistics;
import io.ingot.api.ModelStatistics;
import io.ingot.api.StatDuration;

import java.util.List;

/**
 * Renders model statistics as Triton's statistics extension does ({@code GET /v2/models[/m[/versions/v]]/stats}):
 * the version as a string, every count and duration as a JSON number, all eight {@code inference_stats} entries,
 * and {@code batch_stats} ascending by batch size. perf_analyzer reads exactly these keys.
 */
public final class StatisticsJson
{
    private StatisticsJson()
    {
    }

    /**
     * Writes {@code {"model_stats":[...]}}.
     *
     * @param json  where to write
     * @param stats one entry per model version
     */
    public static void write(final JsonOutput json, final List<ModelStatistics> stats)
    {
        json.beginObject().name("model_stats").beginArray();
        for (final ModelStatistics model : stats)
        {
            json.beginObject()
                .name("name").value(model.name())
                .name("version").value(model.version())
                .name("last_inference").value(model.lastInference())
                .name("inference_count").value(model.inferenceCount())
                .name("execution_count").value(model.executionCount());
            json.name("inference_stats");
            writeInferStats(json, model.inferenceStats());
            // Ingot models answer with one response per request: no per-response statistics.
            json.name("response_stats").beginObject().endObject();
            json.name("batch_stats").beginArray();
            for (final BatchStatistics batch : model.batchStats())
            {
                json.beginObject().name("batch_size").value(batch.batchSize());
                duration(json, "compute_input", batch.computeInput());
                duration(json, "compute_infer", batch.computeInfer());
                duration(json, "compute_output", batch.computeOutput());
                json.endObject();
            }
            json.endArray();
            json.name("memory_usage").beginArray().endArray();
            json.endObject();
        }
        json.endArray().endObject();
    }

    private static void writeInferStats(final JsonOutput json, final InferStatistics stats)
    {
        json.beginObject();
        duration(json, "success", stats.success());
        duration(json, "fail", stats.fail());
        duration(json, "queue", stats.queue());
        duration(json, "compute_input", stats.computeInput());
        duration(json, "compute_infer", stats.computeInfer());
        duration(json, "compute_output", stats.computeOutput());
        duration(json, "cache_hit", stats.cacheHit());
        duration(json, "cache_miss", stats.cacheMiss());
        json.endObject();
    }

    private static void duration(final JsonOutput json, final String name, final StatDuration duration)
    {
        final StatDuration value = duration == null ? StatDuration.ZERO : duration;
        json.name(name).beginObject().name("count").value(value.count()).name("ns").value(value.ns()).endObject();
    }
}
