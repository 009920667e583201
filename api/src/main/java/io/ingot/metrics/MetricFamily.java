package io.ingot.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One named family of a {@link CustomMetrics} registry: its kind and help text, and its metrics, one per label set.
 * Thread-safe: its structure is guarded by the registry's lock.
 */
public final class MetricFamily
{
    private final CustomMetrics registry;
    private final String name;
    private final String description;
    private final MetricKind kind;
    /** Metrics by their labels (sorted by label name); guarded by the registry. */
    private final Map<Map<String, String>, Metric> metrics = new LinkedHashMap<>();
    /** Holds taken by {@link CustomMetrics#family} and not given back; guarded by the registry. */
    int holders;

    MetricFamily(final CustomMetrics registry, final String name, final String description, final MetricKind kind)
    {
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.kind = kind;
    }

    /** @return the metric name */
    public String name()
    {
        return name;
    }

    /** @return the help text */
    public String description()
    {
        return description;
    }

    /** @return the kind */
    public MetricKind kind()
    {
        return kind;
    }

    /**
     * Finds or creates the metric of these labels and takes a hold on it. A histogram found again keeps the buckets
     * it was created with, as in prometheus-cpp.
     *
     * @param labels  label names and values ({@code null}: none)
     * @param buckets a histogram's upper bucket bounds, strictly ascending ({@code +Inf} is implied); {@code null}
     *                for a counter or a gauge
     * @return the metric
     * @throws IllegalArgumentException with Triton's texts: {@code Unexpected args found in counter Metric
     *                                  constructor.}, {@code Bucket boundaries not found in Metric args.}, {@code
     *                                  Bucket Boundaries must be strictly sorted}, {@code Invalid label name}
     */
    public Metric metric(final Map<String, String> labels, final double[] buckets)
    {
        final Map<String, String> sorted = labels == null ? Map.of() : new TreeMap<>(labels);
        CustomMetrics.checkLabels(sorted);
        if (kind == MetricKind.HISTOGRAM)
        {
            if (buckets == null)
            {
                throw new IllegalArgumentException("Bucket boundaries not found in Metric args.");
            }
            for (int b = 1; b < buckets.length; b++)
            {
                if (!(buckets[b] > buckets[b - 1]))
                {
                    throw new IllegalArgumentException("Bucket Boundaries must be strictly sorted");
                }
            }
        }
        else if (buckets != null)
        {
            throw new IllegalArgumentException("Unexpected args found in " + kind.prometheusType()
                + " Metric constructor.");
        }
        synchronized (registry)
        {
            Metric metric = metrics.get(sorted);
            if (metric == null)
            {
                metric = new Metric(this, Map.copyOf(sorted), buckets == null ? null : buckets.clone());
                metrics.put(sorted, metric);
            }
            metric.holders++;
            return metric;
        }
    }

    /** @return the metrics now in this family, in the order they were created (a copy) */
    public List<Metric> metrics()
    {
        synchronized (registry)
        {
            return new ArrayList<>(metrics.values());
        }
    }

    /** Gives back one hold taken by {@link CustomMetrics#family}; extra calls do nothing. */
    public void release()
    {
        synchronized (registry)
        {
            if (holders > 0)
            {
                holders--;
            }
            registry.forgetIfUnused(this);
        }
    }

    /** Called with the registry's lock held, when a metric's last holder let go. */
    void remove(final Metric metric)
    {
        metrics.remove(metric.sortedLabels(), metric);
        registry.forgetIfUnused(this);
    }

    int metricCount()
    {
        return metrics.size();
    }

    CustomMetrics registry()
    {
        return registry;
    }
}
