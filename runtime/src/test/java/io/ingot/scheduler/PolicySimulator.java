package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A deterministic discrete-event simulation of one model's scheduler around a real {@link BatchPolicy}: open-loop
 * arrivals at given times, {@code instances} instances whose executions take what a {@link SimCost} draws, and a
 * simulated clock. It does what the scheduler does, single-threaded: a free instance takes the batching role and asks
 * the policy; on {@link BatchPolicy#DISPATCH} it runs the batch and the next free instance asks, on
 * {@link BatchPolicy#WAIT} the role holder is asked again at the next arrival, completion or the wait's end, on
 * {@link BatchPolicy#EMPTY} at the next arrival. Free instances take the role in the order they became free. An
 * instance reports its execution ({@link BatchPolicy#executed}) when it next asks, as the scheduler does.
 *
 * <p>A request's latency is its completion minus its arrival; requests that arrive in the first {@code warmupNs} are
 * served but not counted. Not thread-safe; one simulator per run (runs are independent and may go in parallel).
 */
final class PolicySimulator
{
    /** One request every simulated request shares (policies read only its cancellation). */
    private static final InferenceRequest REQUEST = new InferenceRequest("m").id("sim");

    /**
     * What one run measured.
     *
     * @param offeredPerS    the arrival rate asked for
     * @param throughputPerS the counted requests completed per second of their arrival span
     * @param meanNs         the counted requests' mean latency
     * @param p99Ns          their 99th percentile latency
     * @param overSlo        the share of them over the SLO
     * @param lost           requests neither completed nor ended (must be 0)
     * @param ended          requests the policy ended (timed out, cancelled)
     * @param meanBatch      the mean batch size dispatched
     */
    record Result(double offeredPerS, double throughputPerS, long meanNs, long p99Ns, double overSlo, int lost,
        int ended, double meanBatch)
    {
    }

    private PolicySimulator()
    {
    }

    /**
     * Runs a policy over a set of arrivals until every request is done.
     *
     * @param policy      the policy, fresh
     * @param instances   the instance count
     * @param cost        the execution times
     * @param arrivals    the arrival times, ascending, from 0
     * @param offeredPerS the rate the arrivals were drawn at (reported back)
     * @param sloNs       the latency objective the over-SLO share counts against
     * @param warmupNs    arrivals before this are not counted
     * @param seed        the execution times' random seed (each instance draws its own stream and stalls)
     * @return the measurements
     */
    static Result run(final BatchPolicy policy, final int instances, final SimCost cost, final long[] arrivals,
        final double offeredPerS, final long sloNs, final long warmupNs, final long seed)
    {
        final SplittableRandom[] randoms = new SplittableRandom[instances];
        final long[][] stalls = new long[instances][];
        final int[] nextStall = new int[instances];
        final long until = arrivals.length == 0 ? 0 : arrivals[arrivals.length - 1] + 10_000_000_000L;
        final FormedBatch[] running = new FormedBatch[instances];
        final long[] doneAt = new long[instances];
        final int[] reportSize = new int[instances];
        final long[] reportNs = new long[instances];
        final int[] free = new int[instances];
        int freeHead = 0;
        int freeCount = instances;
        for (int i = 0; i < instances; i++)
        {
            running[i] = new FormedBatch(16);
            doneAt[i] = Long.MAX_VALUE;
            free[i] = i;
            randoms[i] = new SplittableRandom(seed * 7919 + i);
            stalls[i] = cost.stalls(until, seed * 104_729 + i);
        }
        final EndedRequests ended = new EndedRequests();
        final long[] latencies = new long[arrivals.length];
        int counted = 0;
        int completed = 0;
        int endedCount = 0;
        long batches = 0;
        long batchItems = 0;
        long wakeAt = Long.MAX_VALUE;
        int next = 0;
        while (true)
        {
            long now = next < arrivals.length ? arrivals[next] : Long.MAX_VALUE;
            now = Math.min(now, wakeAt);
            for (int i = 0; i < instances; i++)
            {
                now = Math.min(now, doneAt[i]);
            }
            if (now == Long.MAX_VALUE)
            {
                break;
            }
            for (int i = 0; i < instances; i++)
            {
                if (doneAt[i] == now)
                {
                    final FormedBatch batch = running[i];
                    for (int r = 0; r < batch.count(); r++)
                    {
                        final PendingRequest request = batch.get(r);
                        completed++;
                        if (request.acceptedNs >= warmupNs)
                        {
                            latencies[counted++] = now - request.acceptedNs;
                        }
                    }
                    batch.clear();
                    doneAt[i] = Long.MAX_VALUE;
                    free[(freeHead + freeCount++) % instances] = i;
                }
            }
            while (next < arrivals.length && arrivals[next] <= now)
            {
                policy.enqueue(request(arrivals[next++]));
            }
            if (wakeAt <= now)
            {
                wakeAt = Long.MAX_VALUE;
            }
            while (freeCount > 0)
            {
                final int instance = free[freeHead];
                if (reportSize[instance] != 0)
                {
                    policy.executed(instance, reportSize[instance], reportNs[instance]);
                    reportSize[instance] = 0;
                }
                ended.clear();
                final int status = policy.decide(now, instance, running[instance], ended);
                endedCount += ended.count();
                if (status == BatchPolicy.DISPATCH)
                {
                    final int size = running[instance].batchSize();
                    long duration = cost.sample(size, randoms[instance]);
                    // A stall that began while the instance was idle delays nothing; one during the batch, all of it.
                    final long[] own = stalls[instance];
                    while (nextStall[instance] < own.length && own[nextStall[instance]] < now)
                    {
                        nextStall[instance] += 2;
                    }
                    while (nextStall[instance] < own.length && own[nextStall[instance]] < now + duration)
                    {
                        duration += own[nextStall[instance] + 1];
                        nextStall[instance] += 2;
                    }
                    doneAt[instance] = now + duration;
                    reportSize[instance] = size;
                    reportNs[instance] = duration;
                    batches++;
                    batchItems += size;
                    freeHead = (freeHead + 1) % instances;
                    freeCount--;
                    continue;
                }
                wakeAt = status == BatchPolicy.WAIT ? Math.max(now + 1, running[instance].waitUntilNs())
                    : Long.MAX_VALUE;
                break;
            }
        }
        final int lost = arrivals.length - completed - endedCount;
        final long[] sorted = Arrays.copyOf(latencies, counted);
        Arrays.sort(sorted);
        long sum = 0;
        int over = 0;
        for (final long latency : sorted)
        {
            sum += latency;
            over += latency > sloNs ? 1 : 0;
        }
        final double spanS = counted == 0 ? 1 : (arrivals[arrivals.length - 1] - warmupNs) / 1e9;
        return new Result(offeredPerS, counted / spanS, counted == 0 ? 0 : sum / counted,
            counted == 0 ? 0 : sorted[Math.max(0, (int)Math.ceil(0.99 * counted) - 1)],
            counted == 0 ? 0 : over / (double)counted, lost + policy.queuedRequests(), endedCount,
            batches == 0 ? 0 : batchItems / (double)batches);
    }

    private static PendingRequest request(final long acceptedNs)
    {
        final PendingRequest pending = new PendingRequest();
        pending.request = REQUEST;
        pending.batchSize = 1;
        pending.presentInputs = 1;
        pending.acceptedNs = acceptedNs;
        return pending;
    }
}
