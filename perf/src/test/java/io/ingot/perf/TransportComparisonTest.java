package io.ingot.perf;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interleaving of {@code perf transports} and how its report reads the goals. */
class TransportComparisonTest
{
    /** A client that logs its name on every call and fails once its budget of successes is spent. */
    private static LoadClient logging(final String name, final List<String> log, final int successes)
    {
        return new LoadClient()
        {
            private int calls;

            @Override
            public String call()
            {
                log.add(name);
                return ++calls <= successes ? null : "broken pipe";
            }

            @Override
            public void send(final Sink sink)
            {
                throw new UnsupportedOperationException("perf transports only calls");
            }
        };
    }

    @Test
    void warmsUpEveryTransportThenRotatesTheOrderEachRound() throws Exception
    {
        final List<String> log = new ArrayList<>();
        final List<String> phases = new ArrayList<>();
        final List<TransportComparison.Lane> lanes = List.of(
            new TransportComparison.Lane("a", "A", logging("a", log, 100)),
            new TransportComparison.Lane("b", "B", logging("b", log, 100)),
            new TransportComparison.Lane("c", "C", logging("c", log, 100)));
        final List<TransportComparison.Result> results = new TransportComparison(1, 3, 2).measure(lanes, "4 B",
            phases::add);
        assertEquals(List.of("a", "b", "c", "a", "a", "b", "b", "c", "c", "b", "b", "c", "c", "a", "a", "c", "c", "a",
            "a", "b", "b"), log);
        assertEquals(List.of("warm-up", "round 1/3", "round 2/3", "round 3/3"), phases);
        assertEquals(List.of("a", "b", "c"), results.stream().map(TransportComparison.Result::name).toList());
        // The warm-up request is not measured.
        results.forEach(result -> assertEquals(6, result.requests()));
    }

    @Test
    void aFailedRequestStopsTheComparisonNamingTheTransport()
    {
        final List<String> log = new ArrayList<>();
        final List<TransportComparison.Lane> lanes = List.of(
            new TransportComparison.Lane("IPC", "IPC demo", logging("IPC", log, 3)));
        final PerfException error = assertThrows(PerfException.class,
            () -> new TransportComparison(0, 5, 2).measure(lanes, "1 element (4 B)", phase -> { }));
        assertEquals(PerfException.FAILURE, error.exitCode());
        assertEquals("IPC (IPC demo) failed a request of 1 element (4 B): broken pipe", error.getMessage());
        assertEquals(4, log.size());
    }

    private static TransportComparison.Result result(final String name, final double p50)
    {
        return new TransportComparison.Result(name, name, 10,
            new LevelResult.Latency(p50 / 2, p50, p50, p50, 3 * p50, 4 * p50, 5 * p50, p50, 1));
    }

    @Test
    void theReportComparesEveryMedianWithInProcessAndChecksTheGoals()
    {
        final TransportReport.Size small = new TransportReport.Size(1, 4, List.of(result("in-process", 20),
            result("IPC", 30), result("HTTP", 600), result("gRPC", 900)));
        final TransportReport.Size large = new TransportReport.Size(262_144, 1 << 20, List.of(
            result("in-process", 40), result("IPC", 100), result("HTTP", 2000), result("gRPC", 800)));
        assertEquals(1.5, small.ratioToInProcess("IPC"), 1e-9);
        assertEquals(30.0, small.grpcOverIpc(), 1e-9);
        assertTrue(small.ipcNearInProcess());
        assertTrue(small.ipcFarBelowGrpc());
        assertEquals(2.5, large.ratioToInProcess("IPC"), 1e-9);
        assertFalse(large.ipcNearInProcess());
        assertFalse(large.ipcFarBelowGrpc());

        final TransportReport report = new TransportReport("identity", "ingot perf transports ...",
            RunReport.Machine.current(), "2026-01-01T00:00:00Z", "BLOCKING", 1, 2, 3, List.of(small, large));
        final String markdown = report.markdown();
        assertTrue(markdown.contains("| 1 element (4 B) | IPC | 30.0 | 90.0 | 120.0 | 1.50 | 10 |"), markdown);
        assertTrue(markdown.contains("| 1 element (4 B) | 1.50 (met) | 30.0 (met) |"), markdown);
        assertTrue(markdown.contains("| 262144 elements (1 MiB) | 2.50 (not met) | 8.0 (not met) |"), markdown);
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        report.print(new PrintStream(console, true, StandardCharsets.UTF_8));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("262144 elements (1 MiB): IPC p50 is 2.50x"
            + " in-process (goal <= 2x: not met); gRPC p50 is 8.0x IPC (goal >= 10x: not met)"));
    }

    @Test
    void payloadSizesReadAsBytes()
    {
        assertEquals("4 B", TransportReport.bytes(4));
        assertEquals("1.5 KiB", TransportReport.bytes(1536));
        assertEquals("1 MiB", TransportReport.bytes(1 << 20));
        assertEquals("262144 elements (1 MiB)", TransportReport.payloadLabel(262_144, 1 << 20));
        assertEquals("1 element (4 B)", TransportReport.payloadLabel(1, 4));
    }
}
