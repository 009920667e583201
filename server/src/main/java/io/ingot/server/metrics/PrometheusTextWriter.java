package io.ingot.server.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * Writes counter and gauge snapshots in the Prometheus text exposition format 0.0.4, keeping each metric's name
 * exactly as given.
 *
 * <p>Why not the client library's {@code PrometheusTextFormatWriter}: it appends {@code _total} to every counter
 * ({@code nv_inference_request_success_total}), while Triton exposes {@code nv_inference_request_success}, and
 * existing dashboards and alerts query Triton's names. The 0.0.4 format does not require the suffix.
 */
public final class PrometheusTextWriter
{
    /** Content type of the 0.0.4 text format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusTextWriter()
    {
    }

    /**
     * @param snapshots counter and gauge families (other types are skipped)
     * @return the exposition text
     */
    public static String write(final MetricSnapshots snapshots)
    {
        final StringBuilder out = new StringBuilder(4096);
        for (final MetricSnapshot snapshot : snapshots)
        {
            final String type = switch (snapshot)
            {
                case CounterSnapshot ignored -> "counter";
                case GaugeSnapshot ignored -> "gauge";
                default -> null;
            };
            if (type == null)
            {
                continue;
            }
            final String name = snapshot.getMetadata().getPrometheusName();
            if (snapshot.getMetadata().getHelp() != null)
            {
                out.append("# HELP ").append(name).append(' ');
                escapeHelp(out, snapshot.getMetadata().getHelp());
                out.append('\n');
            }
            out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
            for (final DataPointSnapshot point : snapshot.getDataPoints())
            {
                final double value = switch (point)
                {
                    case CounterSnapshot.CounterDataPointSnapshot counter -> counter.getValue();
                    case GaugeSnapshot.GaugeDataPointSnapshot gauge -> gauge.getValue();
                    default -> Double.NaN;
                };
                out.append(name);
                labels(out, point.getLabels());
                out.append(' ');
                number(out, value);
                out.append('\n');
            }
        }
        return out.toString();
    }

    private static void labels(final StringBuilder out, final Labels labels)
    {
        if (labels.isEmpty())
        {
            return;
        }
        out.append('{');
        for (int i = 0; i < labels.size(); i++)
        {
            if (i > 0)
            {
                out.append(',');
            }
            label(out, labels.getPrometheusName(i), labels.getValue(i));
        }
        out.append('}');
    }

    /** Writes {@code name="value"}, the value escaped as the text format requires. */
    static void label(final StringBuilder out, final String name, final String value)
    {
        out.append(name).append("=\"");
        for (int c = 0; c < value.length(); c++)
        {
            final char ch = value.charAt(c);
            switch (ch)
            {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(ch);
            }
        }
        out.append('"');
    }

    static void escapeHelp(final StringBuilder out, final String help)
    {
        for (int c = 0; c < help.length(); c++)
        {
            final char ch = help.charAt(c);
            switch (ch)
            {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(ch);
            }
        }
    }

    static void number(final StringBuilder out, final double value)
    {
        if (Double.isNaN(value))
        {
            out.append("NaN");
        }
        else if (Double.isInfinite(value))
        {
            out.append(value > 0 ? "+Inf" : "-Inf");
        }
        else if (value == Math.rint(value) && Math.abs(value) < 0x1p53)
        {
            out.append((long) value);
        }
        else
        {
            out.append(value);
        }
    }
}
