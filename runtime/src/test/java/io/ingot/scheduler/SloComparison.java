package io.ingot.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The simulated version of {@code benchmarks/results/adaptive/slo-compare.sh}: for the cost model at its three a/b
 * ratios and SLOs and under constant, Poisson and bursty arrivals, the throughput at the p99 SLO of the adaptive
 * policy, Clipper's AIMD, the bundled static configuration and the best static configuration of a grid like
 * {@code ingot tune}'s, each swept over the script's rate ladder (from 30 % of capacity, 10 % for bursty, up to
 * capacity in steps of 10 %) with {@link PolicySimulator}. Deterministic: the same command prints the same table.
 *
 * <p>Run: {@code mvn -B -q -o -pl runtime test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.ingot.scheduler.SloComparison} (one to two minutes on two cores). Optional arguments, in order: a
 * filter on the case names ({@code _} for all, e.g. {@code 10ms_poisson}), the simulated seconds of arrivals per level
 * (default 30, the first half second not counted), what to print ({@code table}; {@code grid}: every static
 * candidate's throughput at the SLO; {@code adaptive}, {@code aimd} or {@code bundled}: that configuration's every
 * level), and a seed base (default 0) that varies every random draw.
 */
public final class SloComparison
{
    static final int INSTANCES = 2;
    static final long MS = 1_000_000L;

    /**
     * One comparison: a cost model, its SLO, an arrival process.
     *
     * @param aUs      the cost model's fixed cost
     * @param bUs      its cost per item
     * @param sloMs    the p99 objective
     * @param arrivals the arrival process
     */
    record Case(long aUs, long bUs, long sloMs, SimArrivals arrivals)
    {
        /** @return the most two instances serve, at batch 16 */
        double capacity()
        {
            return INSTANCES * 16 * 1e6 / (aUs + 16 * bUs);
        }

        /** @return slo-compare's ladder: low to capacity, times 1.1 */
        List<Double> ladder()
        {
            final List<Double> rates = new ArrayList<>();
            final double low = capacity() * (arrivals instanceof SimArrivals.Bursty ? 0.10 : 0.30);
            for (double rate = low; rate <= capacity() * 1.0001; rate *= 1.1)
            {
                rates.add(Math.floor(rate));
            }
            return rates;
        }

        long sloNs()
        {
            return sloMs * MS;
        }

        @Override
        public String toString()
        {
            return "a=" + aUs + " b=" + bUs + " SLO " + sloMs + "ms " + arrivals.name();
        }
    }

    /**
     * A contender's sweep: its best level within the SLO.
     *
     * @param contender the configuration
     * @param best      the highest-rate level whose p99 met the SLO, or null when none did
     */
    record Sweep(SimContender contender, PolicySimulator.Result best)
    {
        double throughput()
        {
            return best == null ? 0 : best.throughputPerS();
        }
    }

    private final long durationNs;
    private final long warmupNs;
    private final long seedBase;

    /**
     * @param durationNs how long requests arrive at each level
     * @param warmupNs   the first part of it that is not counted
     * @param seedBase   varies every random draw (0 for the published table)
     */
    SloComparison(final long durationNs, final long warmupNs, final long seedBase)
    {
        this.durationNs = durationNs;
        this.warmupNs = warmupNs;
        this.seedBase = seedBase;
    }

    /** The three cost models of slo-compare.sh, each under the three arrival processes. */
    static List<Case> cases()
    {
        final List<Case> cases = new ArrayList<>();
        final long[][] models = {{2000, 100, 10}, {1000, 250, 15}, {400, 400, 20}};
        for (final long[] model : models)
        {
            for (final SimArrivals arrivals : List.of(new SimArrivals.Constant(), new SimArrivals.Poisson(),
                new SimArrivals.Bursty(4, 100 * MS)))
            {
                cases.add(new Case(model[0], model[1], model[2], arrivals));
            }
        }
        return cases;
    }

    /**
     * The static grid: {@code max_batch_size} 1, 2, 4, 8, 16; delays 0, 500, 1000, 2000, 4000 µs; with and without
     * {@code preferred_batch_size = max_batch_size} (without only at delay 0, where preferred sizes change nothing),
     * as {@code ingot tune}'s grid is made, with more sizes and delays than slo-compare.sh asks it for.
     */
    static List<SimContender> staticGrid()
    {
        final List<SimContender> grid = new ArrayList<>();
        for (final int max : new int[] {1, 2, 4, 8, 16})
        {
            for (final long delay : new long[] {0, 500, 1000, 2000, 4000})
            {
                grid.add(SimContender.dynamic(max, delay, List.of()));
                if (delay != 0 && max > 1)
                {
                    grid.add(SimContender.dynamic(max, delay, List.of(max)));
                }
            }
        }
        return grid;
    }

    /** The bundled configuration: {@code max_batch_size} 16, a 2000 µs delay. */
    static SimContender bundled()
    {
        return SimContender.dynamic(16, 2000, List.of());
    }

    /**
     * One level.
     *
     * @param contender the configuration
     * @param c         the case
     * @param rate      the mean arrival rate
     * @return what the simulator measured; the arrivals and execution times depend only on the case and rate
     */
    PolicySimulator.Result level(final SimContender contender, final Case c, final double rate)
    {
        final long seed = Math.round(rate) * 31 + c.aUs() + seedBase * 1_000_003L;
        final long[] arrivals = c.arrivals().times(rate, durationNs, seed);
        return PolicySimulator.run(contender.policy(), INSTANCES, SimCost.jittered(c.aUs() * 1000, c.bUs() * 1000),
            arrivals, rate, c.sloNs(), warmupNs, seed ^ 0x5DEECE66DL);
    }

    /**
     * Sweeps the ladder up to the first level whose mean latency exceeds the SLO (as slo-compare.sh does).
     *
     * @return the highest level whose p99 met the SLO
     */
    Sweep sweep(final SimContender contender, final Case c)
    {
        PolicySimulator.Result best = null;
        for (final double rate : c.ladder())
        {
            final PolicySimulator.Result result = level(contender, c, rate);
            if (result.p99Ns() <= c.sloNs() && result.lost() == 0)
            {
                best = result;
            }
            if (result.meanNs() > c.sloNs())
            {
                break;
            }
        }
        return new Sweep(contender, best);
    }

    /** @return the grid's best sweep for the case (ties to the earlier candidate) */
    Sweep bestStatic(final Case c)
    {
        return staticGrid().parallelStream().map(candidate -> sweep(candidate, c))
            .max(Comparator.comparingDouble(Sweep::throughput)).orElseThrow();
    }

    /** One table row for a case. */
    String row(final Case c)
    {
        final Sweep best = bestStatic(c);
        final Sweep bundled = sweep(bundled(), c);
        final Sweep aimd = sweep(SimContender.aimd(INSTANCES, c.sloNs()), c);
        final Sweep adaptive = sweep(SimContender.adaptive(INSTANCES, c.sloNs()), c);
        return String.format(Locale.ROOT,
            "| %-4d | %-4d | %-3d | %-8s | %6.0f | %6.0f | %6.0f | %6.0f | %5.2fx | %s | %s |", c.aUs(), c.bUs(),
            c.sloMs(), c.arrivals().name(), adaptive.throughput(), aimd.throughput(),
            best.throughput(), bundled.throughput(), adaptive.throughput() / Math.max(1, best.throughput()),
            describe(adaptive), best.contender().name());
    }

    private static String describe(final Sweep sweep)
    {
        final PolicySimulator.Result r = sweep.best();
        return r == null ? "none within SLO" : String.format(Locale.ROOT, "p99 %.1f ms, over %.2f %%, batch %.1f",
            r.p99Ns() / 1e6, 100 * r.overSlo(), r.meanBatch());
    }

    /** Prints every ladder level of one contender ({@code adaptive}, {@code aimd}, {@code bundled}) per case. */
    private void printLevels(final String filter, final String name)
    {
        for (final Case c : cases())
        {
            if (!c.toString().replace(' ', '_').contains(filter))
            {
                continue;
            }
            final SimContender contender = switch (name)
            {
                case "aimd" -> SimContender.aimd(INSTANCES, c.sloNs());
                case "bundled" -> bundled();
                default -> SimContender.adaptive(INSTANCES, c.sloNs());
            };
            System.out.println(c + ", " + contender.name() + ":");
            for (final double rate : c.ladder())
            {
                final PolicySimulator.Result r = level(contender, c, rate);
                System.out.printf(Locale.ROOT, "  %6.0f/s: mean %5.1f ms, p99 %5.1f ms, over %5.2f %%, batch %4.1f%n",
                    rate, r.meanNs() / 1e6, r.p99Ns() / 1e6, 100 * r.overSlo(), r.meanBatch());
            }
        }
    }

    /**
     * Prints the table.
     *
     * @param args optional: a filter on the case names (e.g. {@code bursty}), the seconds of arrivals per level
     */
    public static void main(final String[] args)
    {
        final String filter = args.length > 0 ? args[0] : "";
        final double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 30;
        final long seedBase = args.length > 3 ? Long.parseLong(args[3]) : 0;
        final SloComparison comparison = new SloComparison(Math.round(seconds * 1e9), 500 * MS, seedBase);
        if (args.length > 2 && "grid".equals(args[2]))
        {
            cases().stream().filter(c -> c.toString().replace(' ', '_').contains(filter)).forEach(c -> staticGrid()
                .parallelStream().map(candidate -> comparison.sweep(candidate, c)).toList().forEach(sweep ->
                    System.out.printf(Locale.ROOT, "%s | %-36s | %6.0f%n", c, sweep.contender().name(),
                        sweep.throughput())));
            return;
        }
        if (args.length > 2 && !"table".equals(args[2]))
        {
            comparison.printLevels(filter, args[2]);
            return;
        }
        System.out.println("| a us | b us | SLO | arrivals | adaptive | aimd | best static | bundled |"
            + " adaptive / best | adaptive at its best level | best static config |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (final Case c : cases())
        {
            if (c.toString().replace(' ', '_').contains(filter))
            {
                System.out.println(comparison.row(c));
            }
        }
    }
}
