package io.ingot.gpucheck;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prints the short result table of a GPU check (test, result, time) when the test plan finishes, and writes it, with
 * a one-word outcome ({@code PASSED}, {@code FAILED}, {@code ABORTED}), into the folder named by the system property
 * {@value #REPORTS_PROPERTY}. Registered only in the GPU bundle (tools/gpu-check.sh), never in the Maven build.
 *
 * <p>A class whose set-up aborted (no usable GPU) appears as one ABORTED row with the reason, since its tests never
 * started.
 */
public final class ResultTableListener implements TestExecutionListener
{
    /** System property: folder for {@code gpu-check.txt} and {@code outcome}. */
    public static final String REPORTS_PROPERTY = "ingot.gpucheck.reports";

    private record Row(String name, String result, double millis, String detail)
    {
    }

    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final List<Row> rows = new ArrayList<>();

    @Override
    public void executionStarted(final TestIdentifier test)
    {
        started.put(test.getUniqueId(), System.nanoTime());
    }

    @Override
    public void executionSkipped(final TestIdentifier test, final String reason)
    {
        if (test.isTest() || isClass(test))
        {
            add(new Row(nameOf(test), "SKIPPED", 0, reason));
        }
    }

    @Override
    public void executionFinished(final TestIdentifier test, final TestExecutionResult result)
    {
        final Long start = started.remove(test.getUniqueId());
        final double millis = start == null ? 0 : (System.nanoTime() - start) / 1e6;
        final String detail = result.getThrowable().map(ResultTableListener::firstLine).orElse("");
        if (test.isTest())
        {
            add(new Row(nameOf(test), label(result.getStatus()), millis, detail));
        }
        else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL)
        {
            // A failed or aborted container (e.g. @BeforeAll found no GPU): its tests never ran, so say why here.
            add(new Row(nameOf(test), label(result.getStatus()), millis, detail));
        }
    }

    @Override
    public void testPlanExecutionFinished(final TestPlan plan)
    {
        final List<Row> table;
        synchronized (rows)
        {
            table = List.copyOf(rows);
        }
        final long passed = table.stream().filter(row -> row.result().equals("PASSED")).count();
        final long failed = table.stream().filter(row -> row.result().equals("FAILED")).count();
        final long aborted = table.stream().filter(row -> row.result().equals("ABORTED")).count();
        final long skipped = table.stream().filter(row -> row.result().equals("SKIPPED")).count();
        final int width = Math.max(4, table.stream().mapToInt(row -> row.name().length()).max().orElse(4));

        final StringBuilder text = new StringBuilder()
            .append(String.format("%nGPU check: %d passed, %d failed, %d aborted, %d skipped%n", passed, failed,
                aborted, skipped))
            .append(String.format("  %-" + width + "s  %-7s  %10s%n", "TEST", "RESULT", "TIME (ms)"));
        for (final Row row : table)
        {
            text.append(String.format("  %-" + width + "s  %-7s  %10.1f", row.name(), row.result(), row.millis()));
            if (!row.detail().isEmpty() && !row.result().equals("PASSED"))
            {
                text.append("  ").append(row.detail());
            }
            text.append(System.lineSeparator());
        }
        System.out.print(text);
        System.out.flush();

        final String outcome = failed > 0 ? "FAILED" : aborted + skipped > 0 || passed == 0 ? "ABORTED" : "PASSED";
        final String folder = System.getProperty(REPORTS_PROPERTY);
        if (folder != null)
        {
            try
            {
                final Path reports = Files.createDirectories(Path.of(folder));
                Files.writeString(reports.resolve("gpu-check.txt"), text);
                Files.writeString(reports.resolve("outcome"), outcome + System.lineSeparator());
            }
            catch (final IOException failure)
            {
                throw new UncheckedIOException("cannot write the GPU check report into " + folder, failure);
            }
        }
    }

    private void add(final Row row)
    {
        synchronized (rows)
        {
            rows.add(row);
        }
    }

    private static boolean isClass(final TestIdentifier test)
    {
        return test.getSource().map(source -> source instanceof ClassSource).orElse(false);
    }

    private static String nameOf(final TestIdentifier test)
    {
        final TestSource source = test.getSource().orElse(null);
        if (source instanceof MethodSource method)
        {
            final String className = method.getClassName();
            return className.substring(className.lastIndexOf('.') + 1) + "." + method.getMethodName();
        }
        if (source instanceof ClassSource type)
        {
            final String className = type.getClassName();
            return className.substring(className.lastIndexOf('.') + 1);
        }
        return test.getDisplayName();
    }

    private static String label(final TestExecutionResult.Status status)
    {
        return switch (status)
        {
            case SUCCESSFUL -> "PASSED";
            case FAILED -> "FAILED";
            case ABORTED -> "ABORTED";
        };
    }

    private static String firstLine(final Throwable thrown)
    {
        final String message = String.valueOf(thrown.getMessage());
        final int newline = message.indexOf('\n');
        return thrown.getClass().getSimpleName() + ": " + (newline < 0 ? message : message.substring(0, newline));
    }
}
