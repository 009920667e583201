package io.ingot.perf;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar, redrawn in place with carriage returns — only when standard output is a terminal, so
 * that redirected output and CSV stay clean.
 */
final class ProgressBar implements LoadProfiler.Progress
{
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean enabled;
    private final int levels;
    private final String[] labels;
    private final long startNs = System.nanoTime();
    private int drawn;

    /**
     * @param out     standard output
     * @param enabled whether to draw (standard output is a terminal)
     * @param labels  the levels' names, in order
     */
    ProgressBar(final PrintStream out, final boolean enabled, final String[] labels)
    {
        this.out = out;
        this.enabled = enabled;
        this.levels = labels.length;
        this.labels = labels.clone();
    }

    /** @return whether standard output is a terminal (where a progress bar makes sense). */
    static boolean stdoutIsTerminal()
    {
        final java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    @Override
    public synchronized void at(final int levelIndex, final String phase)
    {
        if (!enabled)
        {
            return;
        }
        final int filled = levels == 0 ? WIDTH : levelIndex * WIDTH / levels;
        final String line = String.format(Locale.ROOT, "\r[%s%s] %d/%d %s, %s, %ds", "#".repeat(filled),
            " ".repeat(WIDTH - filled), levelIndex + 1, levels, labels[levelIndex], phase,
            (System.nanoTime() - startNs) / 1_000_000_000L);
        out.print(line + " ".repeat(Math.max(0, drawn - line.length())));
        out.flush();
        drawn = line.length();
    }

    /** Erases the bar, so that a table row can be printed in its place. */
    synchronized void clear()
    {
        if (enabled && drawn > 0)
        {
            out.print("\r" + " ".repeat(drawn) + "\r");
            out.flush();
            drawn = 0;
        }
    }
}
