package io.ingot.perf;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The open loop's arrival-process options, shared by {@code ingot perf} and {@code ingot tune} (a picocli mixin):
 * {@code --request-distribution}, {@code --burst-ratio}, {@code --burst-period-ms} and {@code --request-trace}.
 */
public final class ArrivalOptions
{
    @Option(names = "--request-distribution", paramLabel = "constant|poisson|bursty", defaultValue = "constant",
        description = "Spacing of open-loop arrivals (default ${DEFAULT-VALUE}). bursty: periods of"
            + " --burst-period-ms, each an on phase of period/R with Poisson arrivals at R times the rate, then no"
            + " arrivals; the mean rate is the level's rate.")
    private String distribution = "constant";

    @Option(names = "--burst-ratio", paramLabel = "R",
        description = "bursty: peak rate over mean rate, >= 1 (default 4); 1/R of each period is on.")
    private Double burstRatio;

    @Option(names = "--burst-period-ms", paramLabel = "MS",
        description = "bursty: length of one on/off period in milliseconds, > 0 (default 100).")
    private Double burstPeriodMs;

    @Option(names = "--request-trace", paramLabel = "FILE.csv",
        description = "Replay recorded arrivals: one time in milliseconds per line (first CSV column, sorted),"
            + " in a loop; scaled to each rate level, or at its own rate without a rate range.")
    private Path trace;

    /** @return whether a trace is replayed (then the rate levels are optional) */
    public boolean hasTrace()
    {
        return trace != null;
    }

    /** @return whether any option other than the default distribution was given */
    public boolean given()
    {
        return trace != null || burstRatio != null || burstPeriodMs != null
            || !"constant".equals(distribution.toLowerCase(Locale.ROOT));
    }

    /**
     * Validates the options and reads the trace, if any.
     *
     * @return the arrival process
     * @throws PerfException (usage) naming the option of a bad value
     */
    public Arrivals arrivals()
    {
        final String kind = distribution.toLowerCase(Locale.ROOT);
        if (!"bursty".equals(kind) && (burstRatio != null || burstPeriodMs != null))
        {
            throw PerfException.usage((burstRatio != null ? "--burst-ratio" : "--burst-period-ms")
                + " goes with --request-distribution bursty, not " + distribution);
        }
        if (trace != null)
        {
            if (!"constant".equals(kind))
            {
                throw PerfException.usage("--request-trace replays recorded arrivals; it cannot be combined with"
                    + " --request-distribution " + distribution);
            }
            return TraceFile.read(trace);
        }
        return switch (kind)
        {
            case "constant" -> new Arrivals.Constant();
            case "poisson" -> new Arrivals.Poisson();
            case "bursty" -> new Arrivals.Bursty(burstRatio == null ? 4 : burstRatio,
                burstPeriodMs == null ? 100 : burstPeriodMs);
            default -> throw PerfException.usage("--request-distribution must be constant, poisson or bursty, got '"
                + distribution + "'");
        };
    }
}
