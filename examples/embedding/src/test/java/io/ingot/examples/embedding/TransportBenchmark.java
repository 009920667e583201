package io.ingot.examples.embedding;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The service's embedding call timed four ways in one run (one JVM, one core, one caller): Ingot in process, the
 * Java KServe client over gRPC and over HTTP, and the IPC client. Rounds interleave the transports (their order
 * rotates every round) so that the machine's other load falls on all of them; each round times {@code requests}
 * calls per transport after {@code warmup} untimed ones. Writes {@code rounds.csv} (per round and transport: p10,
 * p50, p99, mean in µs) and {@code summary.txt} (all rounds' percentiles; each transport's p10 over all rounds, the
 * least disturbed by other processes on a shared machine, and its median per-round p50, as ratios to in-process)
 * into the output folder.
 *
 * <p>Run by {@code examples/embedding/bench.sh}: {@code TransportBenchmark REPOSITORY OUT [rounds] [requests]
 * [warmup]}.
 */
public final class TransportBenchmark
{
    private static final String TEXT = "Ingot serves this sentence to a Spring Boot service.";

    private TransportBenchmark()
    {
    }

    /** @param args repository, output folder, rounds (5), requests per round (300), warm-up calls (300) */
    public static void main(final String[] args) throws Exception
    {
        final Path repository = Path.of(args[0]);
        final Path out = Path.of(args[1]);
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        final int requests = args.length > 3 ? Integer.parseInt(args[3]) : 300;
        final int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 300;
        Files.createDirectories(out);
        try (TextEncoder encoder = new TextEncoder(256); Transports transports = new Transports(repository, "minilm"))
        {
            final TokenizedText tokens = encoder.encode(TEXT);
            final List<String> names = new ArrayList<>(transports.models().keySet());
            final Map<String, Histogram> all = new LinkedHashMap<>();
            final Map<String, List<Double>> p50s = new LinkedHashMap<>();
            for (final String name : names)
            {
                all.put(name, new Histogram(TimeUnit.SECONDS.toNanos(10), 3));
                p50s.put(name, new ArrayList<>());
                time(transports.models().get(name), tokens, warmup, null);
            }
            final StringBuilder csv = new StringBuilder("round,transport,p10_us,p50_us,p99_us,mean_us\n");
            for (int round = 1; round <= rounds; round++)
            {
                for (int k = 0; k < names.size(); k++)
                {
                    final String name = names.get((k + round) % names.size());
                    final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                    time(transports.models().get(name), tokens, requests, histogram);
                    all.get(name).add(histogram);
                    p50s.get(name).add(histogram.getValueAtPercentile(50) / 1e3);
                    csv.append(String.format(Locale.ROOT, "%d,%s,%.1f,%.1f,%.1f,%.1f%n", round, name,
                        histogram.getValueAtPercentile(10) / 1e3, histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                        histogram.getMean() / 1e3));
                }
            }
            Files.writeString(out.resolve("rounds.csv"), csv);
            final String summary = summary(names, all, p50s, rounds, requests, warmup, tokens);
            Files.writeString(out.resolve("summary.txt"), summary);
            System.out.print(summary);
        }
    }

    private static void time(final EmbeddingModel model, final TokenizedText tokens, final int calls,
        final Histogram histogram) throws InterruptedException, ExecutionException, TimeoutException
    {
        for (int i = 0; i < calls; i++)
        {
            final long start = System.nanoTime();
            model.embed(tokens).get(60, TimeUnit.SECONDS);
            if (histogram != null)
            {
                histogram.recordValue(System.nanoTime() - start);
            }
        }
    }

    private static String summary(final List<String> names, final Map<String, Histogram> all,
        final Map<String, List<Double>> p50s, final int rounds, final int requests, final int warmup,
        final TokenizedText tokens) throws IOException
    {
        final StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
            "MiniLM embedding of one %d-token text (padded to %d), one caller, %d rounds x %d calls per transport "
                + "(after %d warm-up calls each), %d CPUs, %s%n%n", tokens.tokens(), tokens.length(), rounds, requests,
            warmup, Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version")));
        text.append(String.format(Locale.ROOT, "%-11s %9s %9s %9s %9s %9s   %s   %s%n", "transport", "p10 us",
            "p50 us", "p90 us", "p99 us", "mean us", "p10 / in-process", "median per-round p50 / in-process"));
        final List<Double> base = p50s.get("in-process");
        for (final String name : names)
        {
            final Histogram histogram = all.get(name);
            final List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < base.size(); r++)
            {
                ratios.add(p50s.get(name).get(r) / base.get(r));
            }
            ratios.sort(null);
            text.append(String.format(Locale.ROOT, "%-11s %9.1f %9.1f %9.1f %9.1f %9.1f   %16.2f   %.2f%n", name,
                histogram.getValueAtPercentile(10) / 1e3, histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(90) / 1e3,
                histogram.getValueAtPercentile(99) / 1e3, histogram.getMean() / 1e3,
                (double)histogram.getValueAtPercentile(10) / all.get("in-process").getValueAtPercentile(10),
                ratios.get(ratios.size() / 2)));
        }
        return text.toString();
    }
}
