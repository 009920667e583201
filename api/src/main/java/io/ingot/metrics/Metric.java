package io.ingot.metrics;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One metric of a {@link MetricFamily}: the value of one label set (a counter or a gauge), or one histogram. The
 * operations a kind does not have are refused with Triton's texts ({@code TRITONSERVER_METRIC_KIND_COUNTER does not
 * support Set}, ...), as Triton's {@code TRITONSERVER_MetricSet} and its siblings refuse them.
 *
 * <p>Thread-safe: a counter's or gauge's value is one atomic word updated by compare-and-set; a histogram's buckets,
 * sum and count change together under the histogram's own lock, so that a scrape sees them consistent.
 */
public final class Metric
{
    private final MetricFamily family;
    private final SortedMap<String, String> labels;
    private final double[] buckets;
    private final AtomicLong valueBits = new AtomicLong(Double.doubleToRawLongBits(0.0));
    /** Per bucket and one more for {@code +Inf}: observations at or below each bound and above the one before. */
    private final long[] bucketCounts;
    private double sum;
    private long count;
    /** Holds taken by {@link MetricFamily#metric} and not given back; guarded by the registry. */
    int holders;

    Metric(final MetricFamily family, final Map<String, String> labels, final double[] buckets)
    {
        this.family = family;
        this.labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
        this.buckets = buckets;
        this.bucketCounts = buckets == null ? null : new long[buckets.length + 1];
    }

    /** @return the family */
    public MetricFamily family()
    {
        return family;
    }

    /** @return the labels, sorted by name (as the text format prints them) */
    public SortedMap<String, String> labels()
    {
        return labels;
    }

    SortedMap<String, String> sortedLabels()
    {
        return labels;
    }

    /**
     * Adds to a counter (a non-negative amount) or a gauge (any amount).
     *
     * @param amount the amount
     * @throws IllegalArgumentException      for a negative amount on a counter
     * @throws UnsupportedOperationException on a histogram
     */
    public void increment(final double amount)
    {
        switch (family.kind())
        {
            case COUNTER ->
            {
                if (amount < 0.0)
                {
                    throw new IllegalArgumentException("TRITONSERVER_METRIC_KIND_COUNTER can only be incremented "
                        + "monotonically by non-negative values.");
                }
                add(amount);
            }
            case GAUGE -> add(amount);
            case HISTOGRAM -> throw unsupported("Increment");
        }
    }

    /**
     * Sets a gauge.
     *
     * @param value the value
     * @throws UnsupportedOperationException on a counter or a histogram
     */
    public void set(final double value)
    {
        if (family.kind() != MetricKind.GAUGE)
        {
            throw unsupported("Set");
        }
        valueBits.set(Double.doubleToRawLongBits(value));
    }

    /**
     * Records one observation in a histogram: every bucket whose bound is at least the value counts it.
     *
     * @param value the observation
     * @throws UnsupportedOperationException on a counter or a gauge
     */
    public void observe(final double value)
    {
        if (family.kind() != MetricKind.HISTOGRAM)
        {
            throw unsupported("Observe");
        }
        int bucket = 0;
        while (bucket < buckets.length && value > buckets[bucket])
        {
            bucket++;
        }
        synchronized (this)
        {
            bucketCounts[bucket]++;
            sum += value;
            count++;
        }
    }

    /**
     * @return a counter's or a gauge's value
     * @throws UnsupportedOperationException on a histogram
     */
    public double value()
    {
        if (family.kind() == MetricKind.HISTOGRAM)
        {
            throw unsupported("Value");
        }
        return Double.longBitsToDouble(valueBits.get());
    }

    /** @return a histogram's buckets, cumulative counts, sum and count, taken together; {@code null} otherwise */
    public HistogramSnapshot histogram()
    {
        if (buckets == null)
        {
            return null;
        }
        final long[] cumulative = new long[bucketCounts.length];
        final double total;
        final long observations;
        synchronized (this)
        {
            long running = 0;
            for (int b = 0; b < bucketCounts.length; b++)
            {
                running += bucketCounts[b];
                cumulative[b] = running;
            }
            total = sum;
            observations = count;
        }
        return new HistogramSnapshot(buckets.clone(), cumulative, total, observations);
    }

    /** Gives back one hold taken by {@link MetricFamily#metric}; the last one removes the metric from its family. */
    public void release()
    {
        synchronized (family.registry())
        {
            if (holders > 0 && --holders == 0)
            {
                family.remove(this);
            }
        }
    }

    private void add(final double amount)
    {
        long bits;
        do
        {
            bits = valueBits.get();
        }
        while (!valueBits.compareAndSet(bits, Double.doubleToRawLongBits(Double.longBitsToDouble(bits) + amount)));
    }

    private UnsupportedOperationException unsupported(final String operation)
    {
        return new UnsupportedOperationException(family.kind().tritonName() + " does not support " + operation);
    }

    /**
     * A histogram at one moment.
     *
     * @param bounds     the upper bounds of the buckets, ascending ({@code +Inf} not included)
     * @param cumulative per bound and then {@code +Inf}: the observations at or below it
     * @param sum        the sum of the observations
     * @param count      their number
     */
    public record HistogramSnapshot(double[] bounds, long[] cumulative, double sum, long count)
    {
        @Override
        public String toString()
        {
            return "HistogramSnapshot{bounds=" + Arrays.toString(bounds) + ", cumulative="
                + Arrays.toString(cumulative) + ", sum=" + sum + ", count=" + count + '}';
        }
    }
}
