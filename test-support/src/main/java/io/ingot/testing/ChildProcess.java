package io.ingot.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a test (a JVM with the test classpath, or Python), whose output lines it can wait for. Used
 * by the shared-memory tests of ring and server, which run clients and servers in processes of their own. Not
 * thread-safe: one test thread drives it.
 */
public final class ChildProcess implements AutoCloseable
{
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();
    private final Thread pump;

    private ChildProcess(final Process process)
    {
        this.process = process;
        this.pump = new Thread(() ->
        {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = reader.readLine()) != null)
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignored)
            {
                // The child was killed.
            }
        }, "child-output-" + process.pid());
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts a JVM with only FFM's flag, {@code --enable-native-access=ALL-UNNAMED}: all that an application using
     * the core in process, or the IPC client, needs (no {@code --add-opens}; {@code JvmFlagsTest} in runtime).
     */
    public static ChildProcess start(final Class<?> main, final String... args) throws IOException
    {
        return start(javaCommand(main, List.of(), args));
    }

    /**
     * @return a Python 3 interpreter that runs ({@code python3} on the PATH, else {@code /usr/bin/python3}), or
     *         {@code null} when there is none: tests of the Python clients are then skipped with that reason
     */
    public static String python3()
    {
        for (final String candidate : new String[] {"python3", "/usr/bin/python3"})
        {
            try
            {
                final Process probe = new ProcessBuilder(candidate, "--version").redirectErrorStream(true).start();
                if (probe.waitFor(20, TimeUnit.SECONDS) && probe.exitValue() == 0)
                {
                    return candidate;
                }
            }
            catch (final IOException absent)
            {
                // try the next one
            }
            catch (final InterruptedException interrupted)
            {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    public static ChildProcess start(final List<String> command) throws IOException
    {
        return new ChildProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /**
     * @param command     the command line
     * @param environment variables set (or replaced) in the child's environment, which is otherwise this one's
     * @return the started process
     * @throws IOException when it cannot be started
     */
    public static ChildProcess start(final List<String> command, final Map<String, String> environment)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new ChildProcess(builder.start());
    }

    public static List<String> javaCommand(final Class<?> main, final List<String> flags, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        final String classpath = System.getProperty("surefire.test.class.path");
        command.add(classpath != null && !classpath.isBlank() ? classpath : System.getProperty("java.class.path"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Xmx192m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.addAll(flags);
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    /** Waits for a line starting with the prefix, failing with everything the child printed otherwise. */
    public String awaitLine(final String prefix, final long seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline)
        {
            final String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null)
            {
                all.add(line);
                if (line.startsWith(prefix))
                {
                    return line;
                }
            }
            else if (!process.isAlive() && lines.isEmpty())
            {
                break;
            }
        }
        throw new AssertionError("child " + process.pid() + " did not print '" + prefix + "' within " + seconds
            + " s; it printed: " + String.join("\n", all));
    }

    /** Waits for the process to end; fails with its output if it does not. */
    public int awaitExit(final long seconds) throws InterruptedException
    {
        if (!process.waitFor(seconds, TimeUnit.SECONDS))
        {
            throw new AssertionError("child " + process.pid() + " did not exit within " + seconds + " s; it printed: "
                + output());
        }
        pump.join(5_000);
        return process.exitValue();
    }

    /** @return everything the process printed so far. */
    public String output()
    {
        lines.drainTo(all);
        return String.join("\n", all);
    }

    public Process process()
    {
        return process;
    }

    public void kill() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException
    {
        if (process.isAlive())
        {
            kill();
        }
    }
}
