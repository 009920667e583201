package io.ingot.server.ipc;

import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcTensor;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The Python client ({@code clients/python}) against a real server. Runs where {@code /usr/bin/python3} with numpy
 * exists (CI installs {@code python3-numpy}); elsewhere the tests are skipped with the reason printed.
 */
class IpcPythonClientTest
{
    private static final String PYTHON = "/usr/bin/python3";
    private static final Path CLIENTS = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
        .toAbsolutePath().getParent().resolve("clients").resolve("python");

    private static InferenceCore core;
    private String name;
    private IpcServer server;

    @BeforeAll
    static void requirePythonAndOpenCore() throws Exception
    {
        final String missing = pythonProblem();
        if (missing != null)
        {
            System.out.println("IpcPythonClientTest skipped: " + missing);
            Assumptions.abort(missing);
        }
        assertTrue(Files.isRegularFile(CLIENTS.resolve("ingot_ipc.py")), "the Python client is at " + CLIENTS);
        core = IpcTestSupport.standardCore();
    }

    private static String pythonProblem() throws Exception
    {
        if (!Files.isExecutable(Path.of(PYTHON)))
        {
            return PYTHON + " does not exist (install python3 and python3-numpy)";
        }
        final Process probe = new ProcessBuilder(PYTHON, "-c", "import numpy").redirectErrorStream(true).start();
        if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0)
        {
            return PYTHON + " cannot import numpy (install python3-numpy): "
                + new String(probe.getInputStream().readAllBytes()).trim();
        }
        return null;
    }

    @AfterAll
    static void closeCore()
    {
        if (core != null)
        {
            core.close();
        }
    }

    @BeforeEach
    void startServer()
    {
        name = IpcTestSupport.uniqueName("ipc-python");
        server = IpcServer.start(core, name, IpcTestSupport.testOptions().maxClients(3).build());
    }

    @AfterEach
    void stopServer()
    {
        server.close();
    }

    private static ChildProcess python(final String script, final String... args) throws Exception
    {
        final List<String> command = new java.util.ArrayList<>(List.of(PYTHON, CLIENTS.resolve(script).toString()));
        command.addAll(List.of(args));
        return ChildProcess.start(command);
    }

    @Test
    void theExampleRoundTripsAddSub() throws Exception
    {
        try (ChildProcess example = python("ipc_add_sub.py", name))
        {
            example.awaitLine("add_sub OK", 120);
            assertEquals(0, example.awaitExit(60), example.output());
            assertTrue(example.output().contains("OUTPUT0  [ 1.  2.  3."), example.output());
        }
    }

    @Test
    void theSelfTestPasses() throws Exception
    {
        try (ChildProcess selfTest = python("ipc_selftest.py", name))
        {
            final String summary = selfTest.awaitLine("10 passed", 300);
            assertEquals("10 passed, 0 failed", summary, selfTest.output());
            assertEquals(0, selfTest.awaitExit(60), selfTest.output());
        }
        final IpcServerStatistics statistics = server.statistics();
        assertEquals(0, statistics.releasesRejected(), statistics.toString());
        assertTrue(statistics.releasesAccepted() > 0, statistics.toString());
        // The Python client rings the server's doorbell after every frame; the IPC thread sleeps between the
        // self-test's steps, so some of its sleeps must have been ended by those rings.
        assertTrue(statistics.doorbellWakeUps() > 0, "the Python client's rings woke the server: " + statistics);
    }

    /**
     * A SPINNING server never raises {@code server_waiting}: a Python client that can fence (libatomic) sees that after
     * each frame and makes no system call to wake it; one that cannot rings after every frame, as before.
     */
    @Test
    void aPythonClientThatCanFenceNeverRingsAServerThatNeverSleeps() throws Exception
    {
        final String spinning = IpcTestSupport.uniqueName("ipc-python-spin");
        final int requests = 200;
        try (IpcServer spinner = IpcServer.start(core, spinning,
                IpcTestSupport.testOptions().maxClients(1).idleMode(IdleMode.SPINNING).build());
            ChildProcess client = python("ipc_selftest.py", spinning, "--rings", Integer.toString(requests)))
        {
            final String[] line = client.awaitLine("RINGS ", 300).split(" ");
            assertEquals(0, client.awaitExit(60), client.output());
            final boolean fenced = Boolean.parseBoolean(line[1].toLowerCase(java.util.Locale.ROOT));
            final long rings = Long.parseLong(line[2]);
            final long skipped = Long.parseLong(line[3]);
            // Each round trip writes an INFER and a RELEASE frame.
            if (fenced)
            {
                assertEquals(0, rings, client.output());
                assertEquals(2L * requests, skipped, client.output());
            }
            else
            {
                System.out.println("IpcPythonClientTest: the Python client has no fence here (no libatomic.so.1)");
                assertEquals(2L * requests, rings, client.output());
            }
            assertEquals(0, spinner.statistics().idleSleeps(), spinner.statistics().toString());
        }
    }

    @Test
    void aPythonClientKilledMidRequestIsReclaimed() throws Exception
    {
        try (ChildProcess victim = python("ipc_selftest.py", name, "--victim"))
        {
            victim.awaitLine("SUBMITTED", 120);
            IpcMultiProcessTest.awaitStatistics(server, s -> s.requestsReceived() == 8, "all 8 requests arrived");
            victim.kill();
            IpcMultiProcessTest.awaitStatistics(server, s -> s.clientsReclaimed() == 1 && s.activeClients() == 0,
                "the killed Python client's slot is reclaimed");
            assertTrue(server.statistics().responsesDropped() >= 1, server.statistics().toString());
        }
        try (IpcClient client = IpcClient.connect(name); IpcTensor a = client.allocate(IpcDataType.FP32, 16))
        {
            client.await(client.submit(new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", a)),
                Duration.ofSeconds(30)).throwIfError().close();
        }
    }
}
