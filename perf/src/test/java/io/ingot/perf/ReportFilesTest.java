package io.ingot.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportFilesTest
{
    private static LevelResult level(final double level, final double throughput, final double p99, final double batch)
    {
        return new LevelResult(level, 100, 1, 0, 1.0, throughput, throughput,
            new LevelResult.Latency(10, 20, 30, 40, p99, 60, 70, 25, 5), batch, 90, 10, 80, 3, true, true, 0);
    }

    private static RunReport report(final List<LevelResult> results)
    {
        return new RunReport("my config", "ingot perf -m m", "fake", "m", "", 1, 64, "concurrency", "-", 1000, 10,
            0, RunReport.Machine.current(), "2026-01-01T00:00Z", results, false, null);
    }

    @Test
    void jsonRoundTripsIntoAPlotSeries(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("run.json");
        ReportFiles.writeJson(report(List.of(level(1, 100, 50, 1), level(2, 180, 55, Double.NaN))), json);
        final String text = Files.readString(json);
        assertTrue(text.contains("\"average_batch_size\": null"), "NaN is written as null: " + text);
        final ReportFiles.Series series = ReportFiles.readSeries(json, "p99");
        assertEquals("my config", series.label());
        assertEquals(2, series.points().size());
        assertArrayEquals(new double[] {180, 55, 2}, series.points().get(1), 1e-9);
        assertEquals(20, ReportFiles.readSeries(json, "p50").points().get(0)[1], 1e-9);
    }

    @Test
    void csvHasOneRowPerLevelUnderPerfAnalyzerStyleHeaders(@TempDir final Path dir) throws Exception
    {
        final Path csv = dir.resolve("run.csv");
        ReportFiles.writeCsv(report(List.of(level(1, 100, 50, 1), level(4, 300, 65, 2.5))), csv);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size());
        assertTrue(lines.get(0).startsWith("Concurrency,Inferences/Second,"), lines.get(0));
        assertTrue(lines.get(2).startsWith("4,300.000,300.000,20.000,30.000,40.000,65.000,"), lines.get(2));
        assertTrue(lines.get(2).contains(",2.500,"), lines.get(2));
    }

    @Test
    void aFileThatIsNotAReportIsAUsageError(@TempDir final Path dir) throws Exception
    {
        final Path other = dir.resolve("other.json");
        Files.writeString(other, "{\"hello\": 1}");
        final PerfException error = assertThrows(PerfException.class, () -> ReportFiles.readSeries(other, "p99"));
        assertTrue(error.getMessage().contains(other.toString()), error.getMessage());
        assertThrows(PerfException.class, () -> ReportFiles.readSeries(dir.resolve("missing.json"), "p99"));
    }

    @Test
    void plotIsAPng(@TempDir final Path dir) throws Exception
    {
        final Path png = dir.resolve("plot.png");
        LatencyPlot.write(png, "title", "p99", List.of(new ReportFiles.Series("a", List.of(new double[] {1, 2, 1},
            new double[] {3, 4, 2})), new ReportFiles.Series("a", List.of(new double[] {2, 2, 1}))), false);
        final byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(new byte[] {(byte)0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(bytes, 4));
    }
}
