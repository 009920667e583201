package io.ingot.perf.tune;

import io.ingot.config.BatchingParameters;
import io.ingot.config.BatchingParameters.Kind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configurations a sweep may measure: every combination of the instance counts, the max batch sizes, the queue
 * delays and the preferred batch sizes, and each config variant (a set of {@code parameters}). Preferred sizes, for a
 * max batch size b with a delay: none, {@code [b]}, and {@code [b/2, b]} when b/2 is at least 2. A max batch size of
 * 1 is measured without dynamic batching (nothing to batch); a delay of 0 without preferred sizes (the batcher never
 * waits, so they change nothing); a model whose {@code max_batch_size} is 0 sweeps instance counts only. Variants
 * apply to the batching candidates only; a variant that chooses a batch policy forming batches itself
 * ({@code ingot.batching} adaptive or aimd, which ignore the queue delay and preferred sizes) is measured once per
 * instance count and max batch size, with neither.
 *
 * @param instances     instance counts
 * @param maxBatchSizes max batch sizes (ignored for a model that does not batch)
 * @param queueDelaysUs queue delays in microseconds
 * @param variants      parameter sets; each adds a copy of every batching candidate with those parameters
 */
public record CandidateGrid(List<Integer> instances, List<Integer> maxBatchSizes, List<Long> queueDelaysUs,
    List<Map<String, String>> variants)
{
    /** Copies the lists. */
    public CandidateGrid
    {
        instances = List.copyOf(instances);
        maxBatchSizes = List.copyOf(maxBatchSizes);
        queueDelaysUs = List.copyOf(queueDelaysUs);
        variants = List.copyOf(variants);
    }

    /**
     * @param batches whether the model batches ({@code max_batch_size} &gt; 0)
     * @return every candidate of the grid, in a fixed order, without duplicates
     */
    public List<Candidate> all(final boolean batches)
    {
        final Set<Candidate> grid = new LinkedHashSet<>();
        for (final int count : instances)
        {
            if (!batches)
            {
                grid.add(new Candidate(count, 0, false, List.of(), 0, Map.of()));
                continue;
            }
            for (final int maxBatch : maxBatchSizes)
            {
                if (maxBatch == 1)
                {
                    grid.add(new Candidate(count, 1, false, List.of(), 0, Map.of()));
                    continue;
                }
                final List<Map<String, String>> parameterSets = new ArrayList<>();
                parameterSets.add(Map.of());
                parameterSets.addAll(variants);
                for (final Map<String, String> parameters : parameterSets)
                {
                    if (formsItsOwnBatches(parameters))
                    {
                        grid.add(new Candidate(count, maxBatch, true, List.of(), 0, parameters));
                        continue;
                    }
                    for (final long delay : queueDelaysUs)
                    {
                        grid.add(new Candidate(count, maxBatch, true, List.of(), delay, parameters));
                        if (delay > 0)
                        {
                            grid.add(new Candidate(count, maxBatch, true, List.of(maxBatch), delay, parameters));
                            if (maxBatch / 2 >= 2)
                            {
                                grid.add(new Candidate(count, maxBatch, true, List.of(maxBatch / 2, maxBatch), delay,
                                    parameters));
                            }
                        }
                    }
                }
            }
        }
        return List.copyOf(grid);
    }

    /**
     * @param parameters a candidate's parameters
     * @return whether they choose a batch policy that forms batches itself, ignoring delay and preferred sizes
     */
    static boolean formsItsOwnBatches(final Map<String, String> parameters)
    {
        final String policy = parameters.get(BatchingParameters.BATCHING);
        return Kind.ADAPTIVE.value().equals(policy) || Kind.AIMD.value().equals(policy);
    }

    /**
     * Bounds a sweep: the current configuration first, then the grid — all of it when it fits, else {@code max - 1}
     * candidates spread evenly over it (every k-th), so that each dimension is still covered; when there is room for
     * one of each, every parameter set (the model's own and each variant) keeps at least one candidate.
     *
     * @param current the model's configuration as it is
     * @param grid    {@link #all(boolean)}
     * @param max     the most candidates to measure, &gt;= 1
     * @return the candidates to measure, the current one first
     */
    public static List<Candidate> select(final Candidate current, final List<Candidate> grid, final int max)
    {
        final List<Candidate> rest = grid.stream().filter(candidate -> !candidate.equals(current)).toList();
        final List<Candidate> chosen = new ArrayList<>();
        chosen.add(current);
        final int room = max - 1;
        if (rest.size() <= room)
        {
            chosen.addAll(rest);
            return chosen;
        }
        final List<Candidate> spread = new ArrayList<>();
        for (int i = 0; i < room; i++)
        {
            spread.add(rest.get((int)((long)i * rest.size() / room)));
        }
        final List<Map<String, String>> sets = rest.stream().map(Candidate::parameters).distinct().toList();
        if (sets.size() <= room)
        {
            for (final Map<String, String> set : sets)
            {
                if (spread.stream().noneMatch(candidate -> candidate.parameters().equals(set)))
                {
                    // Replace a candidate of the most represented set with this set's middle one.
                    final Map<String, String> most = mostRepresented(spread);
                    final List<Candidate> ofSet = rest.stream().filter(c -> c.parameters().equals(set)).toList();
                    for (int i = spread.size() - 1; i >= 0; i--)
                    {
                        if (spread.get(i).parameters().equals(most))
                        {
                            spread.set(i, ofSet.get(ofSet.size() / 2));
                            break;
                        }
                    }
                }
            }
        }
        chosen.addAll(spread);
        return chosen;
    }

    private static Map<String, String> mostRepresented(final List<Candidate> candidates)
    {
        final Map<Map<String, String>, Long> counts = new LinkedHashMap<>();
        for (final Candidate candidate : candidates)
        {
            counts.merge(candidate.parameters(), 1L, Long::sum);
        }
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
}
