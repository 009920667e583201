package io.ingot.perf;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Everything one {@code ingot perf} run measured, with what is needed to reproduce it: the command line, the
 * target, the settings and the machine.
 *
 * @param label        the configuration's name in tables and plots
 * @param command      the command line that produced the run
 * @param target       where requests went
 * @param model        the model
 * @param version      the version asked for ({@code ""}: default)
 * @param batchSize    rows per request
 * @param requestBytes input bytes per request
 * @param mode         {@code concurrency} or {@code request_rate}
 * @param distribution arrival process ({@link Arrivals#describe()}; {@code -} in concurrency mode)
 * @param windowMs     measurement window
 * @param stabilityPct stability percentage
 * @param latencyThresholdUs the latency threshold (SLO) whose violations each level counts, µs; 0 for none
 * @param machine      the machine the client ran on
 * @param started      start time, ISO-8601
 * @param results      one result per measured level
 * @param interrupted  true when the run was stopped before its last level
 * @param firstError   the first failed request's message, or {@code null}
 */
public record RunReport(String label, String command, String target, String model, String version, int batchSize,
    long requestBytes, String mode, String distribution, long windowMs, double stabilityPct, double latencyThresholdUs,
    Machine machine,
    String started, List<LevelResult> results, boolean interrupted, String firstError)
{
    /** Freezes the results. */
    public RunReport
    {
        results = List.copyOf(results);
    }

    /**
     * The machine a run was measured on.
     *
     * @param processors available processors
     * @param memoryBytes physical memory, or -1 when unknown
     * @param jvm        JVM name and version
     * @param os         operating system and architecture
     */
    public record Machine(int processors, long memoryBytes, String jvm, String os)
    {
        /** @return this machine. */
        public static Machine current()
        {
            long memory = -1;
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)
            {
                memory = os.getTotalMemorySize();
            }
            return new Machine(Runtime.getRuntime().availableProcessors(), memory,
                System.getProperty("java.vm.name") + " " + Runtime.version(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                    + System.getProperty("os.arch"));
        }
    }

    /** @return the name of the level column: {@code Concurrency} or {@code Request Rate}. */
    public String levelName()
    {
        return "concurrency".equals(mode) ? "Concurrency" : "Request Rate";
    }
}
