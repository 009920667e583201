package io.ingot.server.metrics;

import io.ingot.metrics.CustomMetrics;
import io.ingot.metrics.Metric;
import io.ingot.metrics.MetricFamily;

import java.util.Map;

/**
 * Writes the metric families a core's models defined ({@link CustomMetrics}) in the text format 0.0.4, after Triton's
 * own families, as Triton's metrics port shows them (prometheus-cpp's serializer): the name exactly as the model gave
 * it (no {@code _total} added: the Prometheus client library's model would refuse or rename a counter the model
 * named {@code requests_total}), labels sorted by name, and a histogram as {@code _count}, {@code _sum} and one
 * cumulative {@code _bucket} per bound with {@code le}, {@code +Inf} last. A family without metrics is not written.
 * Stateless.
 */
final class CustomMetricsText
{
    private CustomMetricsText()
    {
    }

    /**
     * @param registry the models' families, or {@code null} for none
     * @param out      where to append
     */
    static void write(final CustomMetrics registry, final StringBuilder out)
    {
        if (registry == null)
        {
            return;
        }
        for (final MetricFamily family : registry.families())
        {
            final var metrics = family.metrics();
            if (metrics.isEmpty())
            {
                continue;
            }
            final String name = family.name();
            out.append("# HELP ").append(name).append(' ');
            PrometheusTextWriter.escapeHelp(out, family.description());
            out.append('\n').append("# TYPE ").append(name).append(' ').append(family.kind().prometheusType())
                .append('\n');
            for (final Metric metric : metrics)
            {
                final Metric.HistogramSnapshot histogram = metric.histogram();
                if (histogram == null)
                {
                    sample(out, name, metric.labels(), null, metric.value());
                    continue;
                }
                sample(out, name + "_count", metric.labels(), null, histogram.count());
                sample(out, name + "_sum", metric.labels(), null, histogram.sum());
                final StringBuilder bound = new StringBuilder();
                for (int b = 0; b <= histogram.bounds().length; b++)
                {
                    bound.setLength(0);
                    if (b < histogram.bounds().length)
                    {
                        PrometheusTextWriter.number(bound, histogram.bounds()[b]);
                    }
                    else
                    {
                        bound.append("+Inf");
                    }
                    sample(out, name + "_bucket", metric.labels(), bound.toString(), histogram.cumulative()[b]);
                }
            }
        }
    }

    private static void sample(final StringBuilder out, final String name, final Map<String, String> labels,
        final String le, final double value)
    {
        out.append(name);
        if (!labels.isEmpty() || le != null)
        {
            out.append('{');
            boolean first = true;
            for (final Map.Entry<String, String> label : labels.entrySet())
            {
                if (!first)
                {
                    out.append(',');
                }
                first = false;
                PrometheusTextWriter.label(out, label.getKey(), label.getValue());
            }
            if (le != null)
            {
                if (!first)
                {
                    out.append(',');
                }
                PrometheusTextWriter.label(out, "le", le);
            }
            out.append('}');
        }
        out.append(' ');
        PrometheusTextWriter.number(out, value);
        out.append('\n');
    }
}
