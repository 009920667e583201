package io.ingot.ipc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Who a process is, as recorded in the region so that the other side can tell whether it still runs: its pid, its
 * start time in clock ticks since boot (field 22 of {@code /proc/<pid>/stat}, which makes a reused pid look
 * different) and the inode of its pid namespace (pids are comparable only inside one namespace).
 *
 * @param pid          process id
 * @param startTicks   start time in clock ticks since boot, 0 if unknown
 * @param pidNamespace inode of {@code /proc/<pid>/ns/pid}, 0 if unknown
 */
public record ProcessIdentity(long pid, long startTicks, long pidNamespace)
{
    /** What a probe of a recorded process found. */
    public enum Liveness
    {
        /** The process exists and is the one recorded. */
        ALIVE,
        /** No such process, a zombie, or another process with that pid. */
        GONE,
        /** The process cannot be checked from here (no {@code /proc}, or another pid namespace). */
        UNKNOWN
    }

    private static final ProcessIdentity CURRENT = readCurrent();

    /** @return the identity of this process. */
    public static ProcessIdentity current()
    {
        return CURRENT;
    }

    /**
     * @param other the namespace inode another process recorded
     * @return whether pids of that process can be checked from this one
     */
    public boolean sharesPidNamespaceWith(final long other)
    {
        return pidNamespace != 0 && pidNamespace == other;
    }

    /**
     * Checks a process recorded by another side. Call only when {@link #sharesPidNamespaceWith} holds for its
     * namespace; otherwise the answer is {@link Liveness#UNKNOWN}.
     *
     * @param pid          the recorded pid
     * @param startTicks   the recorded start ticks (0: do not compare)
     * @param pidNamespace the recorded namespace inode
     * @return what was found
     */
    public static Liveness probe(final long pid, final long startTicks, final long pidNamespace)
    {
        if (pid <= 0 || !CURRENT.sharesPidNamespaceWith(pidNamespace))
        {
            return Liveness.UNKNOWN;
        }
        final String stat;
        try
        {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        }
        catch (final NoSuchFileException ex)
        {
            return Liveness.GONE;
        }
        catch (final IOException | RuntimeException ex)
        {
            return Liveness.UNKNOWN;
        }
        final String[] fields = fieldsAfterCommand(stat);
        if (fields.length < 20)
        {
            return Liveness.UNKNOWN;
        }
        final String state = fields[0];
        if (state.equals("Z") || state.equals("X") || state.equals("x"))
        {
            return Liveness.GONE;
        }
        if (startTicks != 0 && parse(fields[19]) != startTicks)
        {
            return Liveness.GONE;
        }
        return Liveness.ALIVE;
    }

    private static ProcessIdentity readCurrent()
    {
        final long pid = ProcessHandle.current().pid();
        long ticks = 0;
        long namespace = 0;
        try
        {
            final String[] fields = fieldsAfterCommand(Files.readString(Path.of("/proc/self/stat"),
                StandardCharsets.US_ASCII));
            ticks = fields.length >= 20 ? parse(fields[19]) : 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            ticks = 0;
        }
        try
        {
            final String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            final int open = link.indexOf('[');
            final int close = link.indexOf(']');
            namespace = open >= 0 && close > open ? parse(link.substring(open + 1, close)) : 0;
        }
        catch (final IOException | RuntimeException ex)
        {
            namespace = 0;
        }
        return new ProcessIdentity(pid, ticks, namespace);
    }

    /** Fields of a stat line from field 3 (state) on: the command in parentheses may contain spaces. */
    private static String[] fieldsAfterCommand(final String stat)
    {
        final int close = stat.lastIndexOf(')');
        return close < 0 ? new String[0] : stat.substring(close + 1).trim().split(" ");
    }

    private static long parse(final String value)
    {
        try
        {
            return Long.parseLong(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }
}
