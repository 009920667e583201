package io.ingot.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the tests that run Triton's own files unchanged share: the folder of Triton's public repositories (environment
 * variable {@code INGOT_TRITON_SOURCES}, else {@code <project root>/../triton-sources}, else the unchanged subset in
 * {@code <project root>/third_party/triton}, as {@code io.ingot.testing.TritonSources} finds it), the check that
 * Triton's pure-Python client ({@code <sources>/py}) runs with {@code /usr/bin/python3}, and a run of
 * {@code ingot serve} with clients on Triton's default ports, which its example clients name, in a private network
 * namespace ({@code serve-and-run-clients.sh} under {@code unshare -rn}), or on the machine's own ports where no
 * namespace can be made.
 */
final class TritonSources
{
    static final String PYTHON = "/usr/bin/python3";

    private TritonSources()
    {
    }

    /**
     * @param testClass the test, for the message
     * @param needs     Python modules its clients import
     * @return the sources folder; the test is skipped with the reason when a prerequisite is missing
     */
    static Path require(final Class<?> testClass, final String... needs)
    {
        final Path sources = io.ingot.testing.TritonSources.require("python_backend", testClass.getSimpleName())
            .getParent();
        skipUnless(testClass, Files.isDirectory(sources.resolve("py").resolve("tritonclient")), "Triton's client "
            + "library is not at " + sources.resolve("py").resolve("tritonclient"));
        final String imports = String.join(", ", needs);
        skipUnless(testClass, run(List.of(PYTHON, "-P", "-c", "import " + imports), Map.of("PYTHONPATH",
            sources.resolve("py").toString())) == 0, PYTHON + " cannot import " + imports
            + " (Debian: python3-numpy python3-grpcio python3-protobuf python3-geventhttpclient "
            + "python3-rapidjson python3-requests)");
        skipUnless(testClass, PRIVATE_NETWORK || TRITON_PORTS.stream().allMatch(TritonSources::portFree), "`unshare "
            + "-rn` cannot make a private network namespace here, and Triton's ports 8000-8002, which its clients name,"
            + " are taken");
        return sources;
    }

    /** The ports Triton's example clients name: HTTP, gRPC, metrics. */
    private static final List<Integer> TRITON_PORTS = List.of(8000, 8001, 8002);

    /**
     * Whether {@code unshare -rn} makes a private network namespace here (where a sandbox forbids it, the runs use the
     * machine's own ports 8000-8002 instead, one run at a time). {@code INGOT_TRITON_SHARED_PORTS=1} forces that.
     */
    private static final boolean PRIVATE_NETWORK = !"1".equals(System.getenv("INGOT_TRITON_SHARED_PORTS"))
        && run(List.of("unshare", "-rn", "true"), Map.of()) == 0;

    /** Serializes the runs that use the machine's own ports (no private namespace). */
    private static final Object SHARED_PORTS = new Object();

    private static boolean portFree(final int port)
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static void skipUnless(final Class<?> testClass, final boolean condition, final String reason)
    {
        if (!condition)
        {
            System.out.println(testClass.getSimpleName() + " skipped: " + reason);
            Assumptions.abort(reason);
        }
    }

    private static int run(final List<String> command, final Map<String, String> environment)
    {
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(environment);
            final Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
        catch (final IOException ex)
        {
            return -1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * Copies a file, making its directory.
     *
     * @param from the source
     * @param to   the target
     * @throws IOException when copying fails
     */
    static void copy(final Path from, final Path to) throws IOException
    {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Serves a repository with {@code ingot serve} (this JVM's class path) on Triton's ports and runs the clients
     * against it, one after the other: in a private network namespace where {@code unshare -rn} makes one, else on the
     * machine's own ports 8000-8002, one such run at a time.
     *
     * @param repository the model repository
     * @param clients    name to shell command (run in {@code directory})
     * @param directory  the clients' working directory
     * @param environment extra environment of the server and the clients
     * @param out        where logs go
     * @param serveFlags more flags of {@code ingot serve}
     * @return each client's exit status and output, in order; the server's log under {@code "serve"}
     * @throws Exception when the run cannot be made
     */
    static Map<String, Result> serveAndRun(final Path repository, final Map<String, String> clients,
        final Path directory, final Map<String, String> environment, final Path out, final String... serveFlags)
        throws Exception
    {
        final Path script = out.resolve("serve-and-run-clients.sh");
        try (InputStream source = TritonSources.class.getResourceAsStream("serve-and-run-clients.sh"))
        {
            Files.copy(source, script, StandardCopyOption.REPLACE_EXISTING);
        }
        final StringBuilder list = new StringBuilder();
        clients.forEach((name, command) -> list.append(name).append(' ').append(directory).append(' ')
            .append(command).append('\n'));
        final Path clientList = out.resolve("clients.txt");
        Files.writeString(clientList, list);
        final List<String> command = new ArrayList<>(PRIVATE_NETWORK ? List.of("unshare", "-rn") : List.of());
        command.addAll(List.of("bash", script.toString(), out.toString(), clientList.toString()));
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            "io.ingot.cli.IngotCli", "serve", "--model-repository", repository.toString()));
        command.addAll(List.of(serveFlags));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(out.resolve("run.log").toFile());
        builder.environment().putAll(environment);
        final int exit;
        if (PRIVATE_NETWORK)
        {
            exit = runToEnd(builder);
        }
        else
        {
            synchronized (SHARED_PORTS)
            {
                exit = runToEnd(builder);
            }
        }
        final Map<String, Result> results = new LinkedHashMap<>();
        results.put("serve", new Result(exit, read(out.resolve("serve.log"))));
        final Path statuses = out.resolve("results");
        if (Files.exists(statuses))
        {
            for (final String line : Files.readAllLines(statuses))
            {
                final String[] parts = line.split(" ");
                if (parts.length == 2)
                {
                    results.put(parts[0], new Result(Integer.parseInt(parts[1]), read(out.resolve(parts[0] + ".log"))));
                }
            }
        }
        return results;
    }

    /** @return the run's exit status */
    private static int runToEnd(final ProcessBuilder builder) throws IOException, InterruptedException
    {
        final Process process = builder.start();
        if (!process.waitFor(20, TimeUnit.MINUTES))
        {
            process.destroyForcibly();
            throw new AssertionError("the clients did not finish within 20 minutes");
        }
        return process.exitValue();
    }

    private static String read(final Path file) throws IOException
    {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /**
     * One client's run.
     *
     * @param status its exit status
     * @param output what it printed
     */
    record Result(int status, String output)
    {
        /** @return the output's last lines, for a failure message */
        String tail()
        {
            final String[] lines = output.split("\n");
            return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 40), lines.length));
        }
    }
}
