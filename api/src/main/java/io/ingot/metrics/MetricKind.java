package io.ingot.metrics;

/** The kinds of a custom metric family, as Triton's {@code TRITONSERVER_MetricKind}. Immutable. */
public enum MetricKind
{
    /** A value that only grows. */
    COUNTER("counter", "TRITONSERVER_METRIC_KIND_COUNTER"),
    /** A value that is set, raised or lowered. */
    GAUGE("gauge", "TRITONSERVER_METRIC_KIND_GAUGE"),
    /** Observations counted into buckets, with their sum and count. */
    HISTOGRAM("histogram", "TRITONSERVER_METRIC_KIND_HISTOGRAM");

    private final String prometheusType;
    private final String tritonName;

    MetricKind(final String prometheusType, final String tritonName)
    {
        this.prometheusType = prometheusType;
        this.tritonName = tritonName;
    }

    /** @return the type in the Prometheus text format ({@code # TYPE name counter}) */
    public String prometheusType()
    {
        return prometheusType;
    }

    /** @return Triton's name of the kind, as its error messages print it */
    public String tritonName()
    {
        return tritonName;
    }
}
