package io.ingot.perf;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * Round-trip latency of one request at a time through several transports to the same model, measured so that the
 * machine's noise hits every transport alike: after a warm-up of each, the transports take turns in rounds — each
 * round runs every transport's requests back to back, and the order rotates from round to round, so no transport is
 * always first after another's burst. Latency is send to response of {@link LoadClient#call()}.
 */
final class TransportComparison
{
    /**
     * One transport under test.
     *
     * @param name   its name in reports ({@code "IPC"})
     * @param target where its requests go, for reports
     * @param client its client, prepared
     */
    record Lane(String name, String target, LoadClient client)
    {
    }

    /**
     * One transport's latencies.
     *
     * @param name      the transport
     * @param target    where its requests went
     * @param requests  requests measured
     * @param latencyUs their latency statistics, microseconds
     */
    record Result(String name, String target, long requests, LevelResult.Latency latencyUs)
    {
    }

    /** Receives progress. */
    @FunctionalInterface
    interface Progress
    {
        /**
         * @param phase {@code "warm-up"} or {@code "round 2/5"}
         */
        void at(String phase);
    }

    private final int warmupRequests;
    private final int rounds;
    private final int requestsPerRound;

    /**
     * @param warmupRequests   requests per transport before measuring
     * @param rounds           rounds of measurement
     * @param requestsPerRound requests per transport and round
     */
    TransportComparison(final int warmupRequests, final int rounds, final int requestsPerRound)
    {
        this.warmupRequests = warmupRequests;
        this.rounds = rounds;
        this.requestsPerRound = requestsPerRound;
    }

    /**
     * Measures the transports.
     *
     * @param lanes    the transports, in report order
     * @param payload  what is sent, for error messages
     * @param progress receives progress
     * @return one result per lane, in the lanes' order
     * @throws PerfException (failure) at the first failed request, naming the transport and its error
     * @throws InterruptedException when the measuring thread is interrupted
     */
    List<Result> measure(final List<Lane> lanes, final String payload, final Progress progress)
        throws InterruptedException
    {
        progress.at("warm-up");
        for (final Lane lane : lanes)
        {
            run(lane, warmupRequests, null, payload);
        }
        final Histogram[] latencies = new Histogram[lanes.size()];
        for (int i = 0; i < latencies.length; i++)
        {
            latencies[i] = new Histogram(3);
        }
        for (int round = 0; round < rounds; round++)
        {
            progress.at("round " + (round + 1) + "/" + rounds);
            for (int turn = 0; turn < lanes.size(); turn++)
            {
                final int index = (round + turn) % lanes.size();
                run(lanes.get(index), requestsPerRound, latencies[index], payload);
            }
        }
        final List<Result> results = new ArrayList<>(lanes.size());
        for (int i = 0; i < latencies.length; i++)
        {
            final Lane lane = lanes.get(i);
            results.add(new Result(lane.name(), lane.target(), latencies[i].getTotalCount(),
                LevelResult.Latency.of(latencies[i])));
        }
        return results;
    }

    private static void run(final Lane lane, final int requests, final Histogram latencies, final String payload)
        throws InterruptedException
    {
        final LoadClient client = lane.client();
        for (int i = 0; i < requests; i++)
        {
            final long start = System.nanoTime();
            final String error = client.call();
            final long end = System.nanoTime();
            if (error != null)
            {
                throw PerfException.failure(lane.name() + " (" + lane.target() + ") failed a request of " + payload
                    + ": " + error);
            }
            if (latencies != null)
            {
                latencies.recordValue(end - start);
            }
        }
    }
}
