package io.ingot.python;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A stub's standard error: a daemon thread copies each line to the server's standard error, prefixed with the stub's
 * label, and keeps the last {@value #TAIL_LINES} lines (each cut to {@value #TAIL_LINE_CHARS} characters) so that a
 * message about the stub's death can quote what it said last, which is usually the Python traceback.
 *
 * <p>Contract: memory is bounded by the kept lines whatever the stub writes; the thread ends when the stream does (the
 * process exits). Thread-safety: {@link #lastOutput()} may be called from any thread while the pump appends.
 */
final class StubStandardError
{
    private static final int TAIL_LINES = 20;
    private static final int TAIL_LINE_CHARS = 400;

    private final String label;
    private final Process process;
    // Guarded by itself: the pump appends, any thread that reports a failure reads.
    private final ArrayDeque<String> tail = new ArrayDeque<>();

    /**
     * Starts copying the process's standard error.
     *
     * @param label   the stub's label, the prefix of every copied line
     * @param process the stub process
     */
    StubStandardError(final String label, final Process process)
    {
        this.label = label;
        this.process = process;
        final Thread pump = new Thread(this::pump, "ingot-python-stderr-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    /** @return the last lines the stub wrote to standard error, as a suffix for messages ("" when none). */
    String lastOutput()
    {
        final List<String> lines;
        synchronized (tail)
        {
            lines = new ArrayList<>(tail);
        }
        return lines.isEmpty() ? "" : "; its last output:\n" + String.join("\n", lines);
    }

    private void pump()
    {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                System.err.println("[" + label + "] " + line);
                synchronized (tail)
                {
                    if (tail.size() == TAIL_LINES)
                    {
                        tail.removeFirst();
                    }
                    tail.addLast(line.length() > TAIL_LINE_CHARS ? line.substring(0, TAIL_LINE_CHARS) + "..." : line);
                }
            }
        }
        catch (final IOException ignored)
        {
            // The stub is gone.
        }
    }
}
