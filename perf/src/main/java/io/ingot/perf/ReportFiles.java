package io.ingot.perf;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a run as perf_analyzer-style CSV, as JSON (which {@code ingot perf plot} reads back), and as the console
 * table.
 */
public final class ReportFiles
{
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().create();

    private ReportFiles()
    {
    }

    /**
     * Writes the CSV: one row per level, latencies in microseconds as perf_analyzer writes them.
     *
     * @param report the run
     * @param file   the file
     * @throws IOException when it cannot be written
     */
    public static void writeCsv(final RunReport report, final Path file) throws IOException
    {
        final StringBuilder csv = new StringBuilder();
        csv.append(report.levelName()).append(",Inferences/Second,Requests/Second,Client p50 latency,"
            + "p90 latency,p95 latency,p99 latency,p99.9 latency,Avg latency,Max latency,Avg Batch Size,"
            + "Server Request,Server Queue,Server Compute,Requests,Errors,Delayed,Windows,Stable,Complete,"
            + "Latency Threshold,Over Threshold\n");
        for (final LevelResult r : report.results())
        {
            final LevelResult.Latency l = r.latencyUs();
            csv.append(level(r.level())).append(',').append(num(r.inferencesPerSecond())).append(',')
                .append(num(r.requestsPerSecond())).append(',').append(num(l.p50())).append(',')
                .append(num(l.p90())).append(',').append(num(l.p95())).append(',').append(num(l.p99()))
                .append(',').append(num(l.p999())).append(',').append(num(l.mean())).append(',')
                .append(num(l.max())).append(',').append(num(r.averageBatchSize())).append(',')
                .append(num(r.serverRequestUs())).append(',').append(num(r.serverQueueUs())).append(',')
                .append(num(r.serverComputeUs())).append(',').append(r.requests()).append(',')
                .append(r.errors()).append(',').append(r.delayed()).append(',').append(r.windows()).append(',')
                .append(r.stable()).append(',').append(r.complete()).append(',')
                .append(report.latencyThresholdUs() > 0 ? num(report.latencyThresholdUs()) : "").append(',')
                .append(report.latencyThresholdUs() > 0 ? Long.toString(r.overThreshold()) : "").append('\n');
        }
        write(file, csv.toString());
    }

    /**
     * Writes the JSON document of a run.
     *
     * @param report the run
     * @param file   the file
     * @throws IOException when it cannot be written
     */
    public static void writeJson(final RunReport report, final Path file) throws IOException
    {
        writeJson(toJson(report), file);
    }

    /**
     * Writes a JSON document as perf writes its reports (indented, nulls kept).
     *
     * @param root the document
     * @param file the file (parent directories are created)
     * @throws IOException when it cannot be written
     */
    static void writeJson(final JsonObject root, final Path file) throws IOException
    {
        write(file, GSON.toJson(root) + "\n");
    }

    private static JsonObject toJson(final RunReport report)
    {
        final JsonObject root = new JsonObject();
        root.addProperty("tool", "ingot perf");
        root.addProperty("label", report.label());
        root.addProperty("command", report.command());
        root.addProperty("target", report.target());
        root.addProperty("model", report.model());
        root.addProperty("model_version", report.version());
        root.addProperty("batch_size", report.batchSize());
        root.addProperty("request_bytes", report.requestBytes());
        root.addProperty("mode", report.mode());
        root.addProperty("distribution", report.distribution());
        root.addProperty("measurement_interval_ms", report.windowMs());
        root.addProperty("stability_percentage", report.stabilityPct());
        root.add("latency_threshold_us", report.latencyThresholdUs() > 0 ? number(report.latencyThresholdUs())
            : JsonNull.INSTANCE);
        root.addProperty("started", report.started());
        root.addProperty("interrupted", report.interrupted());
        root.add("first_error", report.firstError() == null ? JsonNull.INSTANCE
            : new JsonPrimitive(report.firstError()));
        root.add("machine", toJson(report.machine()));
        final JsonArray results = new JsonArray();
        for (final LevelResult r : report.results())
        {
            final JsonObject row = new JsonObject();
            row.add("level", number(r.level()));
            row.add("inferences_per_second", number(r.inferencesPerSecond()));
            row.add("requests_per_second", number(r.requestsPerSecond()));
            row.add("latency_us", toJson(r.latencyUs()));
            row.add("average_batch_size", number(r.averageBatchSize()));
            final JsonObject server = new JsonObject();
            server.add("request_us", number(r.serverRequestUs()));
            server.add("queue_us", number(r.serverQueueUs()));
            server.add("compute_us", number(r.serverComputeUs()));
            row.add("server", server);
            row.addProperty("requests", r.requests());
            row.addProperty("errors", r.errors());
            row.addProperty("delayed", r.delayed());
            row.add("duration_s", number(r.durationSeconds()));
            row.addProperty("windows", r.windows());
            row.addProperty("stable", r.stable());
            row.addProperty("complete", r.complete());
            if (report.latencyThresholdUs() > 0)
            {
                row.addProperty("over_threshold", r.overThreshold());
            }
            results.add(row);
        }
        root.add("results", results);
        return root;
    }

    /**
     * @param machine a machine
     * @return its JSON object
     */
    static JsonObject toJson(final RunReport.Machine machine)
    {
        final JsonObject json = new JsonObject();
        json.addProperty("processors", machine.processors());
        json.addProperty("memory_bytes", machine.memoryBytes());
        json.addProperty("jvm", machine.jvm());
        json.addProperty("os", machine.os());
        return json;
    }

    /**
     * @param l latency statistics
     * @return their JSON object, microseconds ({@code min}, {@code p50} ... {@code p99.9}, {@code max},
     *         {@code avg}, {@code stddev}; {@code null} where undefined)
     */
    static JsonObject toJson(final LevelResult.Latency l)
    {
        final JsonObject latency = new JsonObject();
        latency.add("min", number(l.min()));
        latency.add("p50", number(l.p50()));
        latency.add("p90", number(l.p90()));
        latency.add("p95", number(l.p95()));
        latency.add("p99", number(l.p99()));
        latency.add("p99.9", number(l.p999()));
        latency.add("max", number(l.max()));
        latency.add("avg", number(l.mean()));
        latency.add("stddev", number(l.stddev()));
        return latency;
    }

    /**
     * One line of a plot read back from a run's JSON.
     *
     * @param label  the configuration's name
     * @param points throughput (inferences/s), latency (µs) for the chosen statistic, and the level, per level
     */
    public record Series(String label, List<double[]> points)
    {
    }

    /**
     * Reads the plot line of a run's JSON.
     *
     * @param file      a file written by {@link #writeJson}
     * @param statistic the latency statistic ({@code p50} ... {@code p99.9}, {@code avg})
     * @return the line
     * @throws PerfException naming the file when it cannot be read or is not a perf run
     */
    public static Series readSeries(final Path file, final String statistic)
    {
        try
        {
            final JsonObject root = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
            if (!root.has("results") || !root.has("label"))
            {
                throw PerfException.usage(file + " is not a JSON report of ingot perf (no 'label' or 'results')");
            }
            final List<double[]> points = new ArrayList<>();
            for (final JsonElement element : root.getAsJsonArray("results"))
            {
                final JsonObject row = element.getAsJsonObject();
                final JsonElement latency = row.getAsJsonObject("latency_us").get(statistic);
                final JsonElement throughput = row.get("inferences_per_second");
                if (latency == null)
                {
                    throw PerfException.usage(file + " has no latency statistic '" + statistic + "'");
                }
                if (!latency.isJsonNull() && !throughput.isJsonNull())
                {
                    points.add(new double[] {throughput.getAsDouble(), latency.getAsDouble(),
                        row.get("level").getAsDouble()});
                }
            }
            return new Series(root.get("label").getAsString(), points);
        }
        catch (final IOException ex)
        {
            throw PerfException.usage("cannot read " + file + ": " + ex.getMessage());
        }
        catch (final JsonParseException | IllegalStateException | ClassCastException | NullPointerException ex)
        {
            throw PerfException.usage(file + " is not a JSON report of ingot perf: " + ex.getMessage());
        }
    }

    /**
     * Prints one level as a row of the console table.
     *
     * @param report the run (for the column name)
     * @param r      the level
     * @param out    where to print
     * @param header whether to print the header first
     */
    public static void printRow(final RunReport report, final LevelResult r, final PrintStream out,
        final boolean header)
    {
        final boolean slo = report.latencyThresholdUs() > 0;
        if (header)
        {
            out.printf(Locale.ROOT, "%12s %12s %10s %10s %10s %10s %10s %10s %7s %8s %6s%s%n", report.levelName(),
                "infer/s", "p50 us", "p90 us", "p95 us", "p99 us", "p99.9 us", "avg us", "batch", "errors",
                "stable", slo ? String.format(Locale.ROOT, " %8s", "over %") : "");
        }
        out.printf(Locale.ROOT, "%12s %12.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %7.2f %8d %6s%s%n",
            level(r.level()), r.inferencesPerSecond(), r.latencyUs().p50(), r.latencyUs().p90(),
            r.latencyUs().p95(), r.latencyUs().p99(), r.latencyUs().p999(), r.latencyUs().mean(),
            r.averageBatchSize(), r.errors(), r.stable() ? "yes" : r.complete() ? "no" : "part",
            slo ? String.format(Locale.ROOT, " %8.3f", 100 * r.overThresholdFraction()) : "");
    }

    /**
     * @param value a number
     * @return it rounded to three decimals, or JSON {@code null} when it is not finite
     */
    static JsonElement number(final double value)
    {
        return Double.isFinite(value) ? new JsonPrimitive(round(value)) : JsonNull.INSTANCE;
    }

    private static double round(final double value)
    {
        return Math.round(value * 1000.0) / 1000.0;
    }

    private static String num(final double value)
    {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "";
    }

    private static String level(final double level)
    {
        return level == Math.rint(level) ? Long.toString((long)level) : String.format(Locale.ROOT, "%.3f", level);
    }

    /**
     * @param file a file (parent directories are created)
     * @param text its UTF-8 contents
     * @throws IOException when it cannot be written
     */
    static void write(final Path file, final String text) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
