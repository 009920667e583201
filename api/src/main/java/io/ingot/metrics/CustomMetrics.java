package io.ingot.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The metric families models define for themselves, one registry per core, which the server's metrics port exports
 * after Triton's own families. As in Triton (whose registry is prometheus-cpp's), a family is found by its name: asking
 * again for a family of the same name and kind returns the same family (its first description stays), and a
 * different kind is refused; within a family, a metric is found by its labels.
 *
 * <p>Lifetimes are counted: each {@link #family} call and each {@link MetricFamily#metric} call takes a hold, which
 * its caller gives back with {@link MetricFamily#release()} or {@link Metric#release()}. A metric with no holder
 * leaves its family, and a family with neither holders nor metrics leaves the registry, so that a model's metrics
 * disappear from the export when the model that defined them unloads.
 *
 * <p>Thread-safe: the structure is guarded by this registry's lock, held for map updates only; values are updated
 * without it (see {@link Metric}).
 */
public final class CustomMetrics
{
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final Map<String, MetricFamily> families = new LinkedHashMap<>();

    /**
     * Finds or creates a family and takes a hold on it.
     *
     * @param name        the metric name, as Prometheus allows it ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}, not starting with
     *                    {@code __})
     * @param description its help text (a family found again keeps its first description)
     * @param kind        its kind
     * @return the family
     * @throws IllegalArgumentException with prometheus-cpp's texts, as Triton returns them: {@code Invalid metric
     *                                  name}, {@code Family name already exists with different type}
     */
    public MetricFamily family(final String name, final String description, final MetricKind kind)
    {
        if (name == null || name.startsWith("__") || !METRIC_NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("Invalid metric name");
        }
        synchronized (this)
        {
            MetricFamily family = families.get(name);
            if (family == null)
            {
                family = new MetricFamily(this, name, description == null ? "" : description, kind);
                families.put(name, family);
            }
            else if (family.kind() != kind)
            {
                throw new IllegalArgumentException("Family name already exists with different type");
            }
            family.holders++;
            return family;
        }
    }

    /** @return the families now registered, in the order they were first defined (a copy) */
    public synchronized List<MetricFamily> families()
    {
        return new ArrayList<>(families.values());
    }

    /** Drops a family that has neither holders nor metrics left. Called with this registry's lock held. */
    void forgetIfUnused(final MetricFamily family)
    {
        if (family.holders == 0 && family.metricCount() == 0 && families.get(family.name()) == family)
        {
            families.remove(family.name());
        }
    }

    /**
     * @param labels label names and values
     * @throws IllegalArgumentException for a name Prometheus does not allow ({@code Invalid label name}) or a
     *                                  {@code null} value
     */
    static void checkLabels(final Map<String, String> labels)
    {
        for (final Map.Entry<String, String> label : labels.entrySet())
        {
            final String key = label.getKey();
            if (key == null || key.startsWith("__") || !LABEL_NAME.matcher(key).matches())
            {
                throw new IllegalArgumentException("Invalid label name");
            }
            if (label.getValue() == null)
            {
                throw new IllegalArgumentException("label '" + key + "' has no value");
            }
        }
    }
}
