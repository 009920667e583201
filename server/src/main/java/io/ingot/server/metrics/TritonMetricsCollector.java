package io.ingot.server.metrics;

import io.ingot.api.FailureReason;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelStatistics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.List;
import java.util.Map;

/**
 * Triton's per-model inference metrics, read from {@link InferenceCore#modelStatistics} at scrape time: names,
 * types, help texts and labels ({@code model}, {@code version}; {@code reason} on failures, every reason present)
 * as Triton exposes them on its metrics port.
 */
public final class TritonMetricsCollector implements MultiCollector
{
    /** Successful requests. */
    public static final String REQUEST_SUCCESS = "nv_inference_request_success";
    /** Failed requests, by reason. */
    public static final String REQUEST_FAILURE = "nv_inference_request_failure";
    /** Inferences (sum of batch sizes). */
    public static final String INFERENCE_COUNT = "nv_inference_count";
    /** Batch executions. */
    public static final String EXEC_COUNT = "nv_inference_exec_count";
    /** Requests accepted and not yet executing. */
    public static final String PENDING = "nv_inference_pending_request_count";
    /** Response-cache hits of a model with {@code response_cache} enabled. */
    public static final String CACHE_HITS = "nv_cache_num_hits_per_model";
    /** Response-cache misses of such a model. */
    public static final String CACHE_MISSES = "nv_cache_num_misses_per_model";

    private static final String[] DURATION_KEYS = {"request", "queue", "compute_input", "compute_infer",
        "compute_output"};
    private static final String[] DURATION_HELP = {
        "Cumulative inference request duration in microseconds (includes cached requests)",
        "Cumulative inference queuing duration in microseconds (includes cached requests)",
        "Cumulative compute input duration in microseconds (does not include cached requests)",
        "Cumulative compute inference duration in microseconds (does not include cached requests)",
        "Cumulative compute output duration in microseconds (does not include cached requests)"};

    private final InferenceCore core;

    /**
     * @param core the core whose models are reported
     */
    public TritonMetricsCollector(final InferenceCore core)
    {
        this.core = core;
    }

    @Override
    public MetricSnapshots collect()
    {
        final List<ModelStatistics> models = core.modelStatistics(null, InferenceRequest.DEFAULT_VERSION);
        final CounterSnapshot.Builder success = counter(REQUEST_SUCCESS,
            "Number of successful inference requests, all batch sizes");
        final CounterSnapshot.Builder failure = counter(REQUEST_FAILURE,
            "Number of failed inference requests, all batch sizes");
        final CounterSnapshot.Builder inferences = counter(INFERENCE_COUNT,
            "Number of inferences performed (does not include cached requests)");
        final CounterSnapshot.Builder executions = counter(EXEC_COUNT,
            "Number of model executions performed (does not include cached requests)");
        final GaugeSnapshot.Builder pending = GaugeSnapshot.builder().name(PENDING)
            .help("Instantaneous number of pending requests awaiting execution per-model.");
        final CounterSnapshot.Builder[] durations = new CounterSnapshot.Builder[DURATION_KEYS.length];
        for (int i = 0; i < durations.length; i++)
        {
            durations[i] = counter("nv_inference_" + DURATION_KEYS[i] + "_duration_us", DURATION_HELP[i]);
        }
        final CounterSnapshot.Builder cacheHits = counter(CACHE_HITS, "Number of cache hits per model");
        final CounterSnapshot.Builder cacheMisses = counter(CACHE_MISSES, "Number of cache misses per model");
        final CounterSnapshot.Builder cacheHitMicros = counter("nv_cache_hit_duration_per_model",
            "Total cache hit duration per model, in microseconds");
        final CounterSnapshot.Builder cacheMissMicros = counter("nv_cache_miss_duration_per_model",
            "Total cache miss (insert + lookup) duration per model, in microseconds");
        boolean anyCache = false;
        for (final ModelStatistics model : models)
        {
            final Labels labels = Labels.of("model", model.name(), "version", model.version());
            if (cacheEnabled(model))
            {
                anyCache = true;
                final var stats = model.inferenceStats();
                cacheHits.dataPoint(point(labels, stats.cacheHit().count()));
                cacheMisses.dataPoint(point(labels, stats.cacheMiss().count()));
                cacheHitMicros.dataPoint(point(labels, stats.cacheHit().ns() / 1000));
                cacheMissMicros.dataPoint(point(labels, stats.cacheMiss().ns() / 1000));
            }
            success.dataPoint(point(labels, model.inferenceStats().success().count()));
            for (final FailureReason reason : FailureReason.values())
            {
                final Long count = model.failures().get(reason);
                failure.dataPoint(point(labels.add("reason", reason.name()), count == null ? 0 : count));
            }
            inferences.dataPoint(point(labels, model.inferenceCount()));
            executions.dataPoint(point(labels, model.executionCount()));
            pending.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
                .value(model.pendingRequests()).build());
            final Map<String, Long> micros = model.durationsMicros();
            for (int i = 0; i < durations.length; i++)
            {
                final Long value = micros.get(DURATION_KEYS[i]);
                durations[i].dataPoint(point(labels, value == null ? 0 : value));
            }
        }
        final MetricSnapshots.Builder snapshots = MetricSnapshots.builder()
            .metricSnapshot(success.build())
            .metricSnapshot(failure.build())
            .metricSnapshot(inferences.build())
            .metricSnapshot(executions.build())
            .metricSnapshot(pending.build());
        for (final CounterSnapshot.Builder duration : durations)
        {
            snapshots.metricSnapshot(duration.build());
        }
        if (anyCache)
        {
            snapshots.metricSnapshot(cacheHits.build()).metricSnapshot(cacheMisses.build())
                .metricSnapshot(cacheHitMicros.build()).metricSnapshot(cacheMissMicros.build());
        }
        return snapshots.build();
    }

    /** Triton reports the cache metrics only for models that enable the response cache. */
    private boolean cacheEnabled(final ModelStatistics model)
    {
        try
        {
            return core.modelConfig(model.name(), Long.parseLong(model.version())).getResponseCache().getEnable();
        }
        catch (final RuntimeException unloadedMeanwhile)
        {
            return false;
        }
    }

    private static CounterSnapshot.Builder counter(final String name, final String help)
    {
        return CounterSnapshot.builder().name(name).help(help);
    }

    private static CounterSnapshot.CounterDataPointSnapshot point(final Labels labels, final long value)
    {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
