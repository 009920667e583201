package io.ingot.perf;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ingot perf plot}: draws the JSON reports of several runs into one latency-against-throughput chart, one line
 * per run (per configuration).
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
    description = "Plots latency against throughput from JSON reports of 'ingot perf --json', one line per report.")
public final class PerfPlotCommand implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "REPORT.json", description = "Reports written by ingot perf --json.")
    private List<Path> reports = new ArrayList<>();

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.png", description = "The PNG to write.")
    private Path output;

    @Option(names = "--latency", paramLabel = "p50|p90|p95|p99|p99.9|avg", defaultValue = "p99",
        description = "Latency statistic to draw (default ${DEFAULT-VALUE}).")
    private String statistic;

    @Option(names = "--title", paramLabel = "TEXT", defaultValue = "Latency against throughput",
        description = "Chart title.")
    private String title;

    @Option(names = "--log-latency", description = "Logarithmic latency axis.")
    private boolean logLatency;

    @Option(names = "--log-throughput", description = "Logarithmic throughput axis.")
    private boolean logThroughput;

    @Override
    public Integer call()
    {
        try
        {
            final List<ReportFiles.Series> series = new ArrayList<>();
            for (final Path report : reports)
            {
                series.add(ReportFiles.readSeries(report, statistic));
            }
            LatencyPlot.write(output, title, statistic, series, logLatency, logThroughput);
            System.out.println("wrote " + output);
            return 0;
        }
        catch (final PerfException ex)
        {
            System.err.println("error: " + ex.getMessage());
            return ex.exitCode();
        }
        catch (final IOException ex)
        {
            System.err.println("error: cannot write " + output + ": " + ex.getMessage());
            return PerfException.FAILURE;
        }
    }
}
