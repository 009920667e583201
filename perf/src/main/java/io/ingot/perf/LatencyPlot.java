package io.ingot.perf;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws latency against throughput, one line per configuration, as a PNG (headless: no display needed).
 */
public final class LatencyPlot
{
    private static final int WIDTH = 960;
    private static final int HEIGHT = 600;

    private LatencyPlot()
    {
    }

    private static ValueAxis axis(final String label, final boolean log)
    {
        if (log)
        {
            final LogAxis axis = new LogAxis(label);
            axis.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
            axis.setSmallestValue(1e-3);
            return axis;
        }
        final NumberAxis axis = new NumberAxis(label);
        axis.setAutoRangeIncludesZero(true);
        return axis;
    }

    private static String level(final double level)
    {
        return level == Math.rint(level) ? Long.toString((long)level) : String.format(java.util.Locale.ROOT, "%.1f",
            level);
    }

    /**
     * Loads the chart library's graphics (fonts, the headless toolkit) now. Plotting first touches AWT, which
     * registers JVM shutdown hooks; a run interrupted with Ctrl-C plots from within shutdown, where registering
     * hooks is forbidden — so a command that will plot calls this before it starts measuring.
     */
    public static void initializeGraphics()
    {
        System.setProperty("java.awt.headless", "true");
        final XYSeriesCollection data = new XYSeriesCollection();
        final XYSeries series = new XYSeries("warm-up");
        series.add(1, 1);
        data.addSeries(series);
        final JFreeChart chart = new JFreeChart("warm-up", JFreeChart.DEFAULT_TITLE_FONT,
            new XYPlot(data, new NumberAxis("x"), new NumberAxis("y"), new XYLineAndShapeRenderer()), true);
        // ImageIO's disk cache registers a shutdown hook per stream: write PNGs from memory instead.
        ImageIO.setUseCache(false);
        try
        {
            ChartUtils.writeChartAsPNG(new ByteArrayOutputStream(), chart, 64, 64);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot render a chart in memory", ex);
        }
    }

    /**
     * Writes the chart.
     *
     * @param file      the PNG file
     * @param title     the chart's title
     * @param statistic the latency statistic drawn ({@code p99} ...), for the axis label
     * @param series    one line per configuration: throughput (inferences/s), latency (µs) and level (the
     *                  point's label) per level
     * @param logY      whether the latency axis is logarithmic
     * @throws IOException when the file cannot be written
     */
    public static void write(final Path file, final String title, final String statistic,
        final List<ReportFiles.Series> series, final boolean logY) throws IOException
    {
        write(file, title, statistic, series, logY, false);
    }

    /**
     * Writes the chart, optionally with logarithmic axes (for configurations that differ by orders of magnitude).
     *
     * @param file      the PNG file
     * @param title     the chart's title
     * @param statistic the latency statistic drawn ({@code p99} ...), for the axis label
     * @param series    one line per configuration: throughput (inferences/s), latency (µs) and level per level
     * @param logY      whether the latency axis is logarithmic
     * @param logX      whether the throughput axis is logarithmic
     * @throws IOException when the file cannot be written
     */
    public static void write(final Path file, final String title, final String statistic,
        final List<ReportFiles.Series> series, final boolean logY, final boolean logX) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        ImageIO.setUseCache(false);
        final XYSeriesCollection data = new XYSeriesCollection();
        final List<List<String>> labels = new java.util.ArrayList<>();
        for (final ReportFiles.Series line : series)
        {
            // Keys must be unique; the same label twice gets a suffix rather than replacing the first.
            String key = line.label();
            for (int n = 2; data.getSeriesIndex(key) >= 0; n++)
            {
                key = line.label() + " (" + n + ")";
            }
            addSeries(data, labels, key, line, "");
        }
        final XYPlot plot = plot(data, labels, statistic, logY, logX);
        save(file, title, plot);
    }

    /**
     * Writes a sweep's chart: every candidate as a point, the Pareto front (no other candidate has both more
     * throughput and less latency) as a line through its points, and the latency budget as a horizontal line.
     *
     * @param file       the PNG file
     * @param title      the chart's title
     * @param statistic  the latency statistic drawn, for the axis label
     * @param candidates every measured candidate: throughput, latency (µs) and the candidate's number
     * @param front      the front's points, by throughput
     * @param budgetUs   the latency budget in microseconds
     * @throws IOException when the file cannot be written
     */
    public static void writeFront(final Path file, final String title, final String statistic,
        final ReportFiles.Series candidates, final ReportFiles.Series front, final double budgetUs)
        throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        ImageIO.setUseCache(false);
        final XYSeriesCollection data = new XYSeriesCollection();
        final List<List<String>> labels = new java.util.ArrayList<>();
        addSeries(data, labels, candidates.label(), candidates, "#");
        addSeries(data, labels, front.label(), front, "#");
        final XYPlot plot = plot(data, labels, statistic, false, false);
        ((XYLineAndShapeRenderer)plot.getRenderer()).setSeriesLinesVisible(0, false);
        final ValueMarker budget = new ValueMarker(budgetUs / 1000.0, Color.RED, new BasicStroke(1.5f));
        budget.setLabel("budget " + level(budgetUs / 1000.0) + " ms");
        plot.addRangeMarker(budget);
        save(file, title, plot);
    }

    /** Adds a series in the given order (points in µs drawn in ms), each point labelled with its level. */
    private static void addSeries(final XYSeriesCollection data, final List<List<String>> labels, final String key,
        final ReportFiles.Series line, final String labelPrefix)
    {
        final XYSeries xy = new XYSeries(key, false, true);
        final List<String> pointLabels = new java.util.ArrayList<>();
        for (final double[] point : line.points())
        {
            xy.add(point[0], point[1] / 1000.0);
            pointLabels.add(point.length > 2 ? labelPrefix + level(point[2]) : "");
        }
        data.addSeries(xy);
        labels.add(pointLabels);
    }

    private static XYPlot plot(final XYSeriesCollection data, final List<List<String>> labels,
        final String statistic, final boolean logY, final boolean logX)
    {
        final ValueAxis x = axis("throughput (inferences/s)", logX);
        final ValueAxis y = axis(statistic + " latency (ms)", logY);
        final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++)
        {
            renderer.setSeriesStroke(i, new BasicStroke(2.0f));
        }
        // Each point is labelled with its level (concurrency or request rate).
        renderer.setDefaultItemLabelGenerator((dataset, row, column) -> labels.get(row).get(column));
        renderer.setDefaultItemLabelsVisible(true);
        final XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }

    private static void save(final Path file, final String title, final XYPlot plot) throws IOException
    {
        final JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }
}
