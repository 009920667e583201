package io.ingot.perf;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What {@code ingot perf transports} measured: per payload size, the round-trip latency through each transport, the
 * ratio of each median to the in-process median, and whether the IPC transport meets its goals — a median within
 * {@value #IPC_MAX_RATIO}x of in-process and at least {@value #GRPC_MIN_RATIO}x below gRPC's. Printed as a table,
 * written as JSON or as Markdown ready for {@code docs/benchmarks/perf-transports.md}.
 *
 * @param model            the model
 * @param command          the command line that produced the run
 * @param machine          where it ran
 * @param started          start time, ISO-8601
 * @param idleMode         idle mode of the core and the IPC server
 * @param warmupRequests   requests per transport and size before measuring
 * @param rounds           interleaved rounds
 * @param requestsPerRound requests per transport, size and round
 * @param sizes            one entry per payload size
 */
record TransportReport(String model, String command, RunReport.Machine machine, String started, String idleMode,
    int warmupRequests, int rounds, int requestsPerRound, List<Size> sizes)
{
    /** Name of the in-process transport. */
    static final String IN_PROCESS = "in-process";
    /** Name of the shared-memory transport. */
    static final String IPC = "IPC";
    /** Name of the HTTP transport. */
    static final String HTTP = "HTTP";
    /** Name of the gRPC transport. */
    static final String GRPC = "gRPC";
    /** Goal: IPC p50 at most this many times the in-process p50. */
    static final double IPC_MAX_RATIO = 2;
    /** Goal: gRPC p50 at least this many times the IPC p50. */
    static final double GRPC_MIN_RATIO = 10;

    /** Freezes the sizes. */
    TransportReport
    {
        sizes = List.copyOf(sizes);
    }

    /**
     * One payload size.
     *
     * @param elements     elements of each input's variable dimension
     * @param requestBytes input bytes per request
     * @param transports   one result per transport
     */
    record Size(long elements, long requestBytes, List<TransportComparison.Result> transports)
    {
        /** Freezes the results. */
        Size
        {
            transports = List.copyOf(transports);
        }

        /** @return the payload as text: {@code 262144 elements (1 MiB)}. */
        String label()
        {
            return payloadLabel(elements, requestBytes);
        }

        /**
         * @param transport a transport name
         * @return its p50 in microseconds, NaN when it was not measured
         */
        double p50(final String transport)
        {
            for (final TransportComparison.Result result : transports)
            {
                if (result.name().equals(transport))
                {
                    return result.latencyUs().p50();
                }
            }
            return Double.NaN;
        }

        /**
         * @param transport a transport name
         * @return its p50 over the in-process p50
         */
        double ratioToInProcess(final String transport)
        {
            return p50(transport) / p50(IN_PROCESS);
        }

        /** @return gRPC's p50 over IPC's. */
        double grpcOverIpc()
        {
            return p50(GRPC) / p50(IPC);
        }

        /** @return whether IPC's p50 is within {@link #IPC_MAX_RATIO} of in-process. */
        boolean ipcNearInProcess()
        {
            return ratioToInProcess(IPC) <= IPC_MAX_RATIO;
        }

        /** @return whether gRPC's p50 is at least {@link #GRPC_MIN_RATIO} times IPC's. */
        boolean ipcFarBelowGrpc()
        {
            return grpcOverIpc() >= GRPC_MIN_RATIO;
        }
    }

    /**
     * Prints the table and the goals.
     *
     * @param out where to print
     */
    void print(final PrintStream out)
    {
        out.printf(Locale.ROOT, "%-26s %-10s %9s %10s %10s %10s %10s%n", "payload", "transport", "requests", "p50 us",
            "p99 us", "p99.9 us", "p50/inproc");
        for (final Size size : sizes)
        {
            for (final TransportComparison.Result result : size.transports())
            {
                out.printf(Locale.ROOT, "%-26s %-10s %9d %10.1f %10.1f %10.1f %10.2f%n", size.label(), result.name(),
                    result.requests(), result.latencyUs().p50(), result.latencyUs().p99(), result.latencyUs().p999(),
                    size.ratioToInProcess(result.name()));
            }
        }
        out.println();
        for (final Size size : sizes)
        {
            out.printf(Locale.ROOT, "%s: IPC p50 is %.2fx in-process (goal <= %.0fx: %s); gRPC p50 is %.1fx IPC"
                + " (goal >= %.0fx: %s)%n", size.label(), size.ratioToInProcess(IPC), IPC_MAX_RATIO,
                verdict(size.ipcNearInProcess()), size.grpcOverIpc(), GRPC_MIN_RATIO, verdict(size.ipcFarBelowGrpc()));
        }
    }

    /** @return the tables as Markdown, headed by the command, ready for {@code docs/benchmarks/}. */
    String markdown()
    {
        final StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "**%s over in-process, IPC, HTTP and gRPC** — `%s` (%d processors, %s;"
            + " closed loop, one request at a time; warm-up %d, then %d interleaved rounds of %d requests per"
            + " transport; idle mode %s)%n%n", model, command, machine.processors(), machine.jvm(), warmupRequests,
            rounds, requestsPerRound, idleMode));
        md.append("| payload | transport | p50 µs | p99 µs | p99.9 µs | p50 / in-process p50 | requests |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (final Size size : sizes)
        {
            for (final TransportComparison.Result result : size.transports())
            {
                md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %.2f | %d |%n", size.label(),
                    result.name(), result.latencyUs().p50(), result.latencyUs().p99(), result.latencyUs().p999(),
                    size.ratioToInProcess(result.name()), result.requests()));
            }
        }
        md.append(String.format(Locale.ROOT, "%n| payload | IPC p50 / in-process p50 (goal ≤ %.0f) | gRPC p50 / IPC"
            + " p50 (goal ≥ %.0f) |%n", IPC_MAX_RATIO, GRPC_MIN_RATIO));
        md.append("|---|---:|---:|\n");
        for (final Size size : sizes)
        {
            md.append(String.format(Locale.ROOT, "| %s | %.2f (%s) | %.1f (%s) |%n", size.label(),
                size.ratioToInProcess(IPC), verdict(size.ipcNearInProcess()), size.grpcOverIpc(),
                verdict(size.ipcFarBelowGrpc())));
        }
        return md.toString();
    }

    /**
     * Writes the JSON document.
     *
     * @param file the file
     * @throws IOException when it cannot be written
     */
    void writeJson(final Path file) throws IOException
    {
        final JsonObject root = new JsonObject();
        root.addProperty("tool", "ingot perf transports");
        root.addProperty("model", model);
        root.addProperty("command", command);
        root.addProperty("started", started);
        root.add("machine", ReportFiles.toJson(machine));
        root.addProperty("idle_mode", idleMode);
        root.addProperty("warmup_requests", warmupRequests);
        root.addProperty("rounds", rounds);
        root.addProperty("requests_per_round", requestsPerRound);
        final JsonObject goals = new JsonObject();
        goals.addProperty("ipc_p50_max_ratio_to_in_process", IPC_MAX_RATIO);
        goals.addProperty("grpc_p50_min_ratio_to_ipc", GRPC_MIN_RATIO);
        root.add("goals", goals);
        final JsonArray sizeArray = new JsonArray();
        for (final Size size : sizes)
        {
            final JsonObject entry = new JsonObject();
            entry.addProperty("elements", size.elements());
            entry.addProperty("request_bytes", size.requestBytes());
            final JsonArray transports = new JsonArray();
            for (final TransportComparison.Result result : size.transports())
            {
                final JsonObject row = new JsonObject();
                row.addProperty("transport", result.name());
                row.addProperty("target", result.target());
                row.addProperty("requests", result.requests());
                row.add("latency_us", ReportFiles.toJson(result.latencyUs()));
                row.add("p50_ratio_to_in_process", ReportFiles.number(size.ratioToInProcess(result.name())));
                transports.add(row);
            }
            entry.add("transports", transports);
            entry.add("grpc_p50_over_ipc_p50", ReportFiles.number(size.grpcOverIpc()));
            entry.addProperty("ipc_within_goal_of_in_process", size.ipcNearInProcess());
            entry.addProperty("ipc_goal_below_grpc", size.ipcFarBelowGrpc());
            sizeArray.add(entry);
        }
        root.add("sizes", sizeArray);
        ReportFiles.writeJson(root, file);
    }

    private static String verdict(final boolean met)
    {
        return met ? "met" : "not met";
    }

    /**
     * @param elements elements of each input's variable dimension
     * @param bytes    input bytes per request
     * @return the payload as text: {@code 262144 elements (1 MiB)}
     */
    static String payloadLabel(final long elements, final long bytes)
    {
        return elements + (elements == 1 ? " element" : " elements") + " (" + bytes(bytes) + ")";
    }

    /**
     * @param bytes a byte count
     * @return it in B, KiB or MiB: {@code 4 B}, {@code 1 MiB}, {@code 1.5 KiB}
     */
    static String bytes(final long bytes)
    {
        if (bytes < 1024)
        {
            return bytes + " B";
        }
        final boolean mebi = bytes >= 1024 * 1024;
        final double value = mebi ? bytes / (1024.0 * 1024.0) : bytes / 1024.0;
        final String number = value == Math.rint(value) ? Long.toString((long)value)
            : String.format(Locale.ROOT, "%.1f", value);
        return number + (mebi ? " MiB" : " KiB");
    }
}
