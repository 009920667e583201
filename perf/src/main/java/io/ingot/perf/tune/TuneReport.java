package io.ingot.perf.tune;

import io.ingot.perf.LatencyPlot;
import io.ingot.perf.ReportFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Writes a sweep's files: every candidate as CSV, and the Pareto-front plot. */
public final class TuneReport
{
    /** The CSV's header. */
    public static final String CSV_HEADER = "candidate,instances,max_batch_size,dynamic_batching,preferred_batch_size,"
        + "max_queue_delay_us,parameters,throughput_infer_per_s,p50_us,p99_us,avg_batch_size,errors,stable,"
        + "budget_us,over_budget_fraction,slo_met,pareto,error";

    private TuneReport()
    {
    }

    /**
     * @param file    the CSV file
     * @param outcome the sweep
     * @throws IOException when it cannot be written
     */
    public static void writeCsv(final Path file, final SweepOutcome outcome) throws IOException
    {
        final Set<Integer> front = new HashSet<>();
        outcome.paretoFront().forEach(result -> front.add(result.number()));
        final StringBuilder csv = new StringBuilder(CSV_HEADER).append('\n');
        for (final CandidateResult result : outcome.results())
        {
            final Candidate candidate = result.candidate();
            csv.append(result.number()).append(',').append(candidate.instances()).append(',')
                .append(candidate.maxBatchSize()).append(',').append(candidate.batching()).append(',')
                .append(candidate.preferred().stream().map(String::valueOf).collect(Collectors.joining(" ")))
                .append(',').append(candidate.batching() ? Long.toString(candidate.queueDelayUs()) : "")
                .append(',').append(quoted(candidate.parameters().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey()).map(entry -> entry.getKey() + "=" + entry.getValue())
                    .collect(Collectors.joining(" "))))
                .append(',').append(number(result.throughput(), result.measured()))
                .append(',').append(number(result.p50Us(), result.measured()))
                .append(',').append(number(result.p99Us(), result.measured()))
                .append(',').append(result.measured() ? number(result.result().averageBatchSize(), true) : "")
                .append(',').append(result.measured() ? Long.toString(result.result().errors()) : "")
                .append(',').append(result.measured() && result.result().stable())
                .append(',').append(number(result.budgetUs(), true))
                .append(',').append(result.measured() ? String.format(Locale.ROOT, "%.5f",
                    result.result().overThresholdFraction()) : "")
                .append(',').append(result.meetsBudget())
                .append(',').append(front.contains(result.number()))
                .append(',').append(quoted(result.error() == null ? "" : result.error()))
                .append('\n');
        }
        write(file, csv.toString());
    }

    /**
     * @param file    the PNG file
     * @param title   the chart's title
     * @param outcome the sweep
     * @throws IOException when it cannot be written
     */
    public static void writePlot(final Path file, final String title, final SweepOutcome outcome) throws IOException
    {
        final List<double[]> all = new ArrayList<>();
        for (final CandidateResult result : outcome.results())
        {
            if (result.measured())
            {
                all.add(new double[] {result.throughput(), result.p99Us(), result.number()});
            }
        }
        final List<double[]> front = new ArrayList<>();
        for (final CandidateResult result : outcome.paretoFront())
        {
            front.add(new double[] {result.throughput(), result.p99Us(), result.number()});
        }
        final double budget = outcome.results().isEmpty() ? 0 : outcome.results().get(0).budgetUs();
        LatencyPlot.writeFront(file, title, "p99", new ReportFiles.Series("candidates", all),
            new ReportFiles.Series("Pareto front", front), budget);
    }

    /**
     * Writes a text file (UTF-8), creating its directory.
     *
     * @param file the file
     * @param text its content
     * @throws IOException when it cannot be written
     */
    public static void write(final Path file, final String text) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String number(final double value, final boolean present)
    {
        return present && Double.isFinite(value) ? String.format(Locale.ROOT, "%.1f", value) : "";
    }

    private static String quoted(final String text)
    {
        return text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 ? text
            : "\"" + text.replace("\"", "\"\"").replace('\n', ' ') + "\"";
    }
}
