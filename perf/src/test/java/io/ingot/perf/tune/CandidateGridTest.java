package io.ingot.perf.tune;

import io.ingot.config.ModelConfigParser;
import io.ingot.config.proto.ModelConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sweep's candidates: the grid's combinations, its bounding, and a candidate applied to a configuration. */
class CandidateGridTest
{
    @Test
    void gridCombinesTheDimensionsAndSkipsWhatChangesNothing()
    {
        final CandidateGrid grid = new CandidateGrid(List.of(1, 2), List.of(1, 8), List.of(0L, 1000L),
            List.of(Map.of("ingot.batching", "adaptive")));
        final List<Candidate> all = grid.all(true);
        // Per instance count: max batch 1 unbatched (1); max batch 8: delay 0 (1) + delay 1000 without preferred
        // sizes, with [8] and with [4, 8] (3); the adaptive variant once (it ignores delay and preferred sizes): 6.
        assertEquals(2 * (1 + 4 + 1), all.size());
        assertEquals(new Candidate(1, 1, false, List.of(), 0, Map.of()), all.get(0));
        assertTrue(all.contains(new Candidate(2, 8, true, List.of(4, 8), 1000, Map.of())), "two preferred sizes");
        assertTrue(all.contains(new Candidate(2, 8, true, List.of(), 0, Map.of("ingot.batching", "adaptive"))));
        assertEquals(2, all.stream().filter(c -> !c.parameters().isEmpty()).count(), "one adaptive per count");
        assertFalse(all.contains(new Candidate(1, 8, true, List.of(8), 0, Map.of())), "preferred sizes at delay 0");
        assertEquals(all.size(), all.stream().distinct().count());
    }

    @Test
    void aSampledSweepKeepsEveryVariant()
    {
        final Map<String, String> adaptive = Map.of("ingot.batching", "adaptive", "ingot.latency_slo_us", "9000");
        final List<Candidate> all = new CandidateGrid(List.of(1, 2, 4), List.of(4, 8, 16), List.of(0L, 1000L, 5000L),
            List.of(adaptive)).all(true);
        final Candidate current = new Candidate(2, 8, true, List.of(), 0, Map.of());
        for (int max = 3; max <= 8; max++)
        {
            final List<Candidate> chosen = CandidateGrid.select(current, all, max);
            assertEquals(max, chosen.size());
            assertTrue(chosen.stream().anyMatch(candidate -> candidate.parameters().equals(adaptive)),
                "the adaptive variant is measured with " + max + " candidates: " + chosen);
            assertEquals(chosen.size(), chosen.stream().distinct().count());
        }
    }

    @Test
    void aModelThatDoesNotBatchSweepsInstancesOnly()
    {
        final List<Candidate> all = new CandidateGrid(List.of(1, 2, 4), List.of(8), List.of(100L), List.of())
            .all(false);
        assertEquals(List.of(1, 2, 4), all.stream().map(Candidate::instances).toList());
        assertTrue(all.stream().noneMatch(Candidate::batching));
    }

    @Test
    void selectionPutsTheCurrentConfigurationFirstAndSpreadsTheRest()
    {
        final List<Candidate> all = new CandidateGrid(List.of(1, 2, 4, 8), List.of(2, 4, 8, 16),
            List.of(0L, 500L, 2000L), List.of()).all(true);
        final Candidate current = all.get(5);
        final List<Candidate> chosen = CandidateGrid.select(current, all, 6);
        assertEquals(6, chosen.size());
        assertEquals(current, chosen.get(0));
        assertEquals(chosen.size(), chosen.stream().distinct().count(), "no candidate twice");
        // Evenly spread: the first and the last instance counts are both represented.
        assertTrue(chosen.stream().anyMatch(candidate -> candidate.instances() == 1));
        assertTrue(chosen.stream().anyMatch(candidate -> candidate.instances() == 8));
        assertEquals(all.size(), CandidateGrid.select(current, all, 1000).size(), "a grid that fits is all measured");
    }

    @Test
    void candidateChangesOnlyTheSchedulingOfTheConfiguration() throws Exception
    {
        final ModelConfig file = ModelConfigParser.parse("""
            name: "m"
            backend: "cost"
            max_batch_size: 4
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            dynamic_batching { priority_levels: 2 default_priority_level: 1 max_queue_delay_microseconds: 7 }
            parameters { key: "base_us" value { string_value: "10" } }
            """, "test");
        final ModelConfig completed = file.toBuilder().addInstanceGroup(io.ingot.config.proto.ModelInstanceGroup
            .newBuilder().setKind(io.ingot.config.proto.ModelInstanceGroup.Kind.KIND_CPU).setCount(1)).build();
        assertEquals(new Candidate(1, 4, true, List.of(), 7, Map.of()), Candidate.of(completed));
        final ModelConfig applied = new Candidate(3, 16, true, List.of(16), 2000,
            Map.of("ingot.batching", "adaptive")).applyTo(file, completed);
        assertEquals(16, applied.getMaxBatchSize());
        assertEquals(3, applied.getInstanceGroup(0).getCount());
        assertEquals(io.ingot.config.proto.ModelInstanceGroup.Kind.KIND_CPU, applied.getInstanceGroup(0).getKind());
        assertEquals(List.of(16), applied.getDynamicBatching().getPreferredBatchSizeList());
        assertEquals(2000, applied.getDynamicBatching().getMaxQueueDelayMicroseconds());
        assertEquals(2, applied.getDynamicBatching().getPriorityLevels(), "priority levels kept");
        assertEquals("10", applied.getParametersMap().get("base_us").getStringValue());
        assertEquals("adaptive", applied.getParametersMap().get("ingot.batching").getStringValue());
        assertFalse(new Candidate(1, 1, false, List.of(), 0, Map.of()).applyTo(file, completed)
            .hasDynamicBatching());
    }
}
