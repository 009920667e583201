package io.ingot.perf.pipeline;

import io.ingot.api.BatchListener;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceBatch;
import io.ingot.api.ResponseFuture;

import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Throughput with K requests in flight, three ways of keeping them there, against the DJL-style and Triton-style
 * batchers with the same K in flight (issue 34):
 * <ul>
 *   <li>{@code blocking-run}: Ingot alone, as {@code blocking} but through {@code submitAndRun} (an idle
 *       instance's batch runs on the caller); its ratios are to the baselines' blocking callers;</li>
 *   <li>{@code blocking}: K caller threads, each in a closed loop (submit, wait — spinning 20 µs, then parking — and
 *       submit again), for every pipeline;</li>
 *   <li>{@code async}: one submitter thread keeps K requests in flight: it resubmits each request whose completion it
 *       finds, and yields when it finds none. Ingot through {@code submit(request, listener)}, each baseline through
 *       its own asynchronous form (its worker completes the request's slot, a callback);</li>
 *   <li>{@code batch}: Ingot alone (the baselines have no batch form): the same submitter keeps K in flight as
 *       {@code split} {@link InferenceBatch}es of K / split requests, each submitted with one call
 *       ({@code submit(batch, listener)}), resubmitted whole once done.</li>
 * </ul>
 * and, in the {@code async} way, the {@link HandOffFloorPipeline hand-off floor}: what the same submitter and one
 * batching thread cost with nothing between them but a ring — the most any pipeline with a hand-off can make here.
 * Every (way, pipeline) runs at every level in every round, in an order that rotates from round to round, each on a
 * freshly started pipeline, measured over a window after a warm-up; the throughput is requests completed by the
 * pipeline (its own count) over the window. One run at a time. With {@code only=WAY:PIPELINE} a driver runs one
 * (way, pipeline) per JVM, so that no other's runs shape the JIT's profile of the code it measures.
 *
 * <pre>{@code
 * java --enable-native-access=ALL-UNNAMED -cp "$CP" io.ingot.perf.pipeline.InFlightComparison OUT_DIR \
 *     rounds=3 levels=1,16,64 windowMs=2000 warmupMs=1000 maxBatch=8 split=4
 * }</pre>
 */
public final class InFlightComparison
{
    private static final List<String> BASELINES = List.of("djl-style", "triton-style");
    /** The ways of keeping requests in flight, in report order. */
    private static final List<String> WAYS = List.of("blocking", "blocking-run", "async", "batch");
    /** The suffix of a batcher alone ({@link Pipelines#createBatcherOnly}), e.g. {@code ingot-batcher}. */
    private static final String BATCHER = "-batcher";

    private final int maxBatch;
    private final int split;
    private final long warmupNanos;
    private final long windowNanos;

    /** One measurement. */
    record Sample(String way, String pipeline, int inFlight, int round, double throughput, double averageBatch)
    {
    }

    private InFlightComparison(final int maxBatch, final int split, final long warmupNanos, final long windowNanos)
    {
        this.maxBatch = maxBatch;
        this.split = split;
        this.warmupNanos = warmupNanos;
        this.windowNanos = windowNanos;
    }

    /**
     * @param args the output folder, then {@code key=value}: rounds, levels, windowMs, warmupMs, maxBatch, split,
     *             only (the runs to make, {@code WAY:PIPELINE} separated by commas, where PIPELINE may also be a
     *             batcher alone, {@code ingot-batcher}; all the default runs when absent)
     * @throws Exception when a pipeline fails or the results cannot be written
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length < 1)
        {
            System.err.println("usage: InFlightComparison OUT_DIR [rounds=3] [levels=1,16,64] [windowMs=2000] "
                + "[warmupMs=1000] [maxBatch=8] [split=4] [only=WAY:PIPELINE,...]");
            System.exit(2);
        }
        final Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++)
        {
            final String[] pair = args[i].split("=", 2);
            options.put(pair[0], pair.length > 1 ? pair[1] : "");
        }
        final int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        final int[] levels = Arrays.stream(options.getOrDefault("levels", "1,16,64").split(","))
            .mapToInt(Integer::parseInt).toArray();
        final InFlightComparison comparison = new InFlightComparison(
            Integer.parseInt(options.getOrDefault("maxBatch", "8")),
            Integer.parseInt(options.getOrDefault("split", "4")),
            Long.parseLong(options.getOrDefault("warmupMs", "1000")) * 1_000_000L,
            Long.parseLong(options.getOrDefault("windowMs", "2000")) * 1_000_000L);
        final List<String[]> runs = new ArrayList<>();
        for (final String pipeline : List.of("ingot", "djl-style", "triton-style"))
        {
            runs.add(new String[] {"blocking", pipeline});
            runs.add(new String[] {"async", pipeline});
        }
        runs.add(new String[] {"batch", "ingot"});
        runs.add(new String[] {"blocking-run", "ingot"});
        runs.add(new String[] {"async", Pipelines.HAND_OFF_FLOOR});
        // only=WAY:PIPELINE[,...]: just those (a driver that runs each in a JVM of its own, so that no other
        // pipeline's or level's runs shape the JIT's profile of the code it measures); besides the default runs' it
        // may name a batcher alone in the async way (PIPELINE-batcher: Pipelines.createBatcherOnly)
        final String only = options.get("only");
        if (only != null)
        {
            runs.clear();
            for (final String wanted : only.split(","))
            {
                final String[] run = wanted.split(":", 2);
                if (run.length != 2 || !WAYS.contains(run[0]))
                {
                    throw new IllegalArgumentException("only=" + only + ": '" + wanted
                        + "' is not WAY:PIPELINE with WAY one of " + String.join(", ", WAYS));
                }
                runs.add(run);
            }
        }
        final List<Sample> samples = new ArrayList<>();
        for (int round = 1; round <= rounds; round++)
        {
            for (final int level : levels)
            {
                for (int r = 0; r < runs.size(); r++)
                {
                    final String[] run = runs.get((r + round + level) % runs.size());
                    final Sample sample = comparison.measure(run[0], run[1], level, round);
                    samples.add(sample);
                    System.out.printf(Locale.ROOT, "round %d  %3d in flight  %-8s %-12s %,12.0f req/s  batch %.2f%n",
                        round, level, run[0], run[1], sample.throughput(), sample.averageBatch());
                }
            }
        }
        final Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Files.writeString(out.resolve("in-flight.json"), json(samples, options));
        final String table = table(samples, levels);
        Files.writeString(out.resolve("in-flight.md"), table);
        System.out.println();
        System.out.print(table);
    }

    private Sample measure(final String way, final String name, final int inFlight, final int round)
        throws InterruptedException
    {
        try (Pipeline pipeline = name.endsWith(BATCHER)
                ? Pipelines.createBatcherOnly(name.substring(0, name.length() - BATCHER.length()), maxBatch,
                    IdleMode.BLOCKING)
                : Pipelines.create(name, 1, maxBatch, IdleMode.BLOCKING);
            Arena arena = Arena.ofShared())
        {
            final PipelineSlot[] slots = new PipelineSlot[inFlight];
            for (int i = 0; i < inFlight; i++)
            {
                slots[i] = pipeline.newSlot(arena);
            }
            final Load load = switch (way)
            {
                case "blocking" -> new BlockingCallers(pipeline, slots, null);
                case "blocking-run" -> new BlockingCallers(pipeline, slots, (IngotPipeline)pipeline);
                case "async" -> new Submitter(pipeline, slots, null, split);
                case "batch" -> new Submitter(pipeline, slots, (IngotPipeline)pipeline, split);
                default -> throw new IllegalArgumentException(way);
            };
            load.start();
            try
            {
                Thread.sleep(warmupNanos / 1_000_000L);
                final long requests = pipeline.requests();
                final long executions = pipeline.executions();
                final long start = System.nanoTime();
                Thread.sleep(windowNanos / 1_000_000L);
                final long seconds = System.nanoTime() - start;
                final long done = pipeline.requests() - requests;
                final long ran = pipeline.executions() - executions;
                return new Sample(way, name, inFlight, round, done / (seconds / 1e9),
                    ran == 0 ? 0 : (double)done / ran);
            }
            finally
            {
                load.stop();
            }
        }
    }

    /** A way of keeping requests in flight. */
    private interface Load
    {
        void start();

        void stop() throws InterruptedException;
    }

    /** K threads, each with one slot in a closed loop. */
    private static final class BlockingCallers implements Load
    {
        private final Pipeline pipeline;
        private final PipelineSlot[] slots;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile boolean running = true;

        /** Ingot through {@code submitAndRun} (caller runs), or {@code null}: every pipeline's plain submit. */
        private final IngotPipeline runner;

        BlockingCallers(final Pipeline pipeline, final PipelineSlot[] slots, final IngotPipeline runner)
        {
            this.pipeline = pipeline;
            this.slots = slots;
            this.runner = runner;
        }

        @Override
        public void start()
        {
            for (final PipelineSlot slot : slots)
            {
                threads.add(Thread.ofPlatform().daemon().start(() ->
                {
                    try
                    {
                        while (running)
                        {
                            slot.begin();
                            if (runner != null)
                            {
                                runner.submitAndRun(slot);
                            }
                            else
                            {
                                pipeline.submit(slot);
                            }
                            slot.await(ResponseFuture.DEFAULT_SPIN_NANOS);
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failure.compareAndSet(null, ex);
                    }
                }));
            }
        }

        @Override
        public void stop() throws InterruptedException
        {
            running = false;
            for (final Thread thread : threads)
            {
                thread.join();
            }
            if (failure.get() != null)
            {
                throw new IllegalStateException("a caller failed", failure.get());
            }
        }
    }

    /** One thread keeps every slot in flight: one by one, or (Ingot's batch form) in batches. */
    private static final class Submitter implements Load
    {
        private final Pipeline pipeline;
        private final PipelineSlot[] slots;
        private final InferenceBatch[] batches;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;
        private volatile boolean running = true;

        Submitter(final Pipeline pipeline, final PipelineSlot[] slots, final IngotPipeline batching, final int split)
        {
            this.pipeline = pipeline;
            this.slots = slots;
            if (batching == null)
            {
                batches = null;
                return;
            }
            final int count = Math.min(split, slots.length);
            final int size = (slots.length + count - 1) / count;
            final List<InferenceBatch> made = new ArrayList<>();
            for (int first = 0; first < slots.length; first += size)
            {
                final InferenceBatch batch = new InferenceBatch(size);
                for (int i = first; i < Math.min(slots.length, first + size); i++)
                {
                    batch.add(batching.request(slots[i]));
                }
                made.add(batch);
            }
            batches = made.toArray(InferenceBatch[]::new);
        }

        @Override
        public void start()
        {
            thread = Thread.ofPlatform().daemon().start(() ->
            {
                try
                {
                    if (batches == null)
                    {
                        keepSlotsInFlight();
                    }
                    else
                    {
                        keepBatchesInFlight();
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            });
        }

        private void keepSlotsInFlight()
        {
            for (final PipelineSlot slot : slots)
            {
                slot.begin();
                pipeline.submit(slot);
            }
            while (running)
            {
                boolean any = false;
                for (final PipelineSlot slot : slots)
                {
                    if (slot.isDone())
                    {
                        slot.await(0);  // throws if it failed
                        slot.begin();
                        pipeline.submit(slot);
                        any = true;
                    }
                }
                if (!any)
                {
                    Thread.yield();
                }
            }
            for (final PipelineSlot slot : slots)
            {
                slot.await(ResponseFuture.DEFAULT_SPIN_NANOS);
            }
        }

        private void keepBatchesInFlight()
        {
            final IngotPipeline ingot = (IngotPipeline)pipeline;
            for (final InferenceBatch batch : batches)
            {
                ingot.core().submit(batch, BatchListener.NONE);
            }
            while (running)
            {
                boolean any = false;
                for (final InferenceBatch batch : batches)
                {
                    if (batch.isDone())
                    {
                        resubmit(ingot, batch);
                        any = true;
                    }
                }
                if (!any)
                {
                    Thread.yield();
                }
            }
            for (final InferenceBatch batch : batches)
            {
                batch.await();
            }
        }

        private static void resubmit(final IngotPipeline ingot, final InferenceBatch batch)
        {
            final int size = batch.size();
            for (int i = 0; i < size; i++)
            {
                if (!batch.response(i).isOk())
                {
                    throw new IllegalStateException("a batched request failed: " + batch.response(i).error());
                }
            }
            batch.closeResponses();  // ready again with the same requests
            ingot.core().submit(batch, BatchListener.NONE);
        }

        @Override
        public void stop() throws InterruptedException
        {
            running = false;
            thread.join();
            if (failure.get() != null)
            {
                throw new IllegalStateException("the submitter failed", failure.get());
            }
        }
    }

    private static String json(final List<Sample> samples, final Map<String, String> options)
    {
        return "{\n  \"options\": " + options.entrySet().stream()
            .map(e -> "\"" + e.getKey() + "\": \"" + e.getValue() + "\"").collect(Collectors.joining(", ", "{", "}"))
            + ",\n  \"samples\": [\n" + samples.stream().map(s -> String.format(Locale.ROOT,
                "    {\"way\": \"%s\", \"pipeline\": \"%s\", \"inFlight\": %d, \"round\": %d, \"throughput\": %.1f, "
                + "\"averageBatch\": %.3f}", s.way(), s.pipeline(), s.inFlight(), s.round(), s.throughput(),
                s.averageBatch())).collect(Collectors.joining(",\n")) + "\n  ]\n}\n";
    }

    private static double median(final List<Sample> samples, final String way, final String pipeline,
        final int inFlight)
    {
        final double[] values = samples.stream().filter(s -> s.way().equals(way) && s.pipeline().equals(pipeline)
            && s.inFlight() == inFlight).mapToDouble(Sample::throughput).sorted().toArray();
        return values.length == 0 ? Double.NaN : values[(values.length - 1) / 2];
    }

    private static String table(final List<Sample> samples, final int[] levels)
    {
        final StringBuilder out = new StringBuilder();
        out.append("Medians over rounds, requests/s; ratios to the better baseline in the same way (its own "
            + "asynchronous form for the listener and batch rows).\n\n");
        out.append("| in flight | way | ingot | djl-style | triton-style | ingot / djl-style | ingot / better "
            + "| hand-off floor | floor / djl-style |\n");
        out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (final int level : levels)
        {
            for (final String way : WAYS)
            {
                final String baselineWay = switch (way)
                {
                    case "batch" -> "async";
                    case "blocking-run" -> "blocking";
                    default -> way;
                };
                final double ingot = median(samples, way, "ingot", level);
                final double djl = median(samples, baselineWay, BASELINES.get(0), level);
                final double triton = median(samples, baselineWay, BASELINES.get(1), level);
                // The floor has the async form only: its column is the same on the listener and batch rows.
                final double floor = baselineWay.equals("async")
                    ? median(samples, "async", Pipelines.HAND_OFF_FLOOR, level) : Double.NaN;
                final String floorCells = Double.isNaN(floor) ? " | "
                    : String.format(Locale.ROOT, "%,.0f | %.2f×", floor, floor / djl);
                out.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %,.0f | %,.0f | %.2f× | %.2f× | %s |%n",
                    level, way.equals("async") ? "listener (async)" : way, ingot, djl, triton, ingot / djl,
                    ingot / Math.max(djl, triton), floorCells));
            }
        }
        return out.toString();
    }
}
