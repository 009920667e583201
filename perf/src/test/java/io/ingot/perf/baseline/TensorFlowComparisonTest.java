package io.ingot.perf.baseline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Comparison tensorflow} end to end with tiny windows: Ingot's TensorFlow backend and the C API called
 * directly both serve the SavedModel, and the reports and the table are written. Measures nothing worth reading.
 */
class TensorFlowComparisonTest
{
    @Test
    void bothSidesServeTheSavedModelAndTheReportsAreWritten(@TempDir final Path out) throws Exception
    {
        final int code = new CommandLine(new Comparison()).execute("tensorflow", "--model", "simple",
            "--concurrency", "1,2", "-p", "300", "--warmup-interval", "100", "-r", "2", "--out", out.toString());
        assertEquals(0, code);
        for (final String report : new String[] {"tensorflow-simple-ingot.json", "tensorflow-simple-tf-unbatched.json",
            "tensorflow-simple-tf-batched.json", "comparison.md", "latency-throughput-p99.png"})
        {
            assertTrue(Files.isRegularFile(out.resolve(report)), report + " was not written");
        }
        final String table = Files.readString(out.resolve("comparison.md"));
        assertTrue(table.contains("| TF unbatched infer/s |"), table);
        assertEquals(2, table.lines().filter(line -> line.matches("\\| [12] \\| .*")).count(), table);
        final String ingot = Files.readString(out.resolve("tensorflow-simple-ingot.json"));
        assertTrue(ingot.contains("\"errors\": 0") || ingot.contains("\"errors\":0"), ingot);
    }
}
