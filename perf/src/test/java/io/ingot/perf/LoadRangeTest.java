package io.ingot.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadRangeTest
{
    @Test
    void multiplicativeStepDoublesUpToTheEnd()
    {
        assertEquals(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0),
            LoadRange.parse("1:64:x2", "--concurrency-range", true).values());
    }

    @Test
    void additiveStepWithOrWithoutPlus()
    {
        assertEquals(List.of(4.0, 8.0, 12.0, 16.0), LoadRange.parse("4:16:4", "--concurrency-range", true).values());
        assertEquals(List.of(4.0, 8.0, 12.0, 16.0), LoadRange.parse("4:16:+4", "--concurrency-range", true).values());
    }

    @Test
    void endDefaultsToStartAndStepToOne()
    {
        assertEquals(List.of(8.0), LoadRange.parse("8", "--concurrency-range", true).values());
        assertEquals(List.of(1.0, 2.0, 3.0), LoadRange.parse("1:3", "--concurrency-range", true).values());
    }

    @Test
    void ratesMayBeFractionalAndReachTheirEnd()
    {
        final List<Double> rates = LoadRange.parse("0.5:1.5:0.5", "--request-rate-range", false).values();
        assertEquals(3, rates.size());
        assertEquals(1.5, rates.get(2), 1e-9);
    }

    @Test
    void stepThatOvershootsStopsBeforeTheEnd()
    {
        assertEquals(List.of(1.0, 3.0), LoadRange.parse("1:4:x3", "--concurrency-range", true).values());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0:4", "4:1", "1:4:x1", "1:4:0", "a", "1:2:3:4", "1.5:4", "", "-1:4", "1:4:xx"})
    void badRangesAreUsageErrorsNamingTheOption(final String text)
    {
        final PerfException error = assertThrows(PerfException.class,
            () -> LoadRange.parse(text, "--concurrency-range", true));
        assertEquals(PerfException.USAGE, error.exitCode());
        assertTrue(error.getMessage().contains("--concurrency-range"), error.getMessage());
        assertTrue(error.getMessage().contains("'" + text + "'"), error.getMessage());
    }

    @Test
    void tooManyLevelsAreRefused()
    {
        final PerfException error = assertThrows(PerfException.class,
            () -> LoadRange.parse("1:5000", "--concurrency-range", true));
        assertTrue(error.getMessage().contains("more than " + LoadRange.MAX_LEVELS), error.getMessage());
    }
}
