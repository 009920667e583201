package io.ingot.ipc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A JVM started by a test with the test classpath, whose output lines the test can wait for. */
final class ChildJvm implements AutoCloseable
{
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();

    private ChildJvm(final Process process)
    {
        this.process = process;
        final Thread pump = new Thread(() ->
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

    static ChildJvm start(final Class<?> main, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        final String classpath = System.getProperty("surefire.test.class.path");
        command.add(classpath != null && !classpath.isBlank() ? classpath : System.getProperty("java.class.path"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Xmx64m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** Waits for a line starting with the prefix, failing with everything the child printed otherwise. */
    String awaitLine(final String prefix, final long seconds) throws InterruptedException
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

    Process process()
    {
        return process;
    }

    void kill() throws InterruptedException
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
