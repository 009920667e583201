package io.ingot.server.ipc;

import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcServerGoneException;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static io.ingot.server.ipc.IpcTestSupport.floats;
import static io.ingot.server.ipc.IpcTestSupport.putFloats;
import static org.junit.jupiter.api.Assertions.*;

/** Clients and servers in separate processes, as they run in production. */
@Isolated("timing: measures delays or idle periods, which tests running beside it would disturb")
class IpcMultiProcessTest
{
    @Test
    void manyClientProcessesAtOnceGetEveryAnswerRight() throws Exception
    {
        final String name = IpcTestSupport.uniqueName("ipc-many");
        try (InferenceCore core = IpcTestSupport.standardCore();
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().build()))
        {
            final List<ChildProcess> children = new ArrayList<>();
            try
            {
                children.add(ChildProcess.start(IpcClientMain.class, name, "add_sub", "2", "300"));
                children.add(ChildProcess.start(IpcClientMain.class, name, "add_sub_batched", "2", "300"));
                children.add(ChildProcess.start(IpcClientMain.class, name, "add_sub_batched", "2", "300"));
                for (final ChildProcess child : children)
                {
                    assertEquals("OK 600", child.awaitLine("OK", 240), child.output());
                    assertEquals(0, child.awaitExit(60), child.output());
                }
            }
            finally
            {
                for (final ChildProcess child : children)
                {
                    child.close();
                }
            }
            final IpcServerStatistics statistics = server.statistics();
            assertEquals(6, statistics.clientsActivated(), statistics.toString());
            assertEquals(1800, statistics.requestsReceived(), statistics.toString());
            assertEquals(1800, statistics.responsesSent(), statistics.toString());
            // A client that closes right after releasing its last outputs may leave that RELEASE unread; the
            // reclaim resets its whole output area anyway.
            assertTrue(statistics.releasesAccepted() >= 3600 - 6 * 2, "the outputs were released: " + statistics);
            assertEquals(0, statistics.releasesRejected(), statistics.toString());
            awaitStatistics(server, s -> s.clientsReclaimed() == 6 && s.activeClients() == 0,
                "every departed client's slot is free again");
        }
    }

    @Test
    void aClientKilledMidRequestIsReclaimedWhileOthersContinue(@TempDir final Path temp) throws Exception
    {
        final String name = IpcTestSupport.uniqueName("ipc-kill");
        // The other two clients stop half-way until this file exists, so that they hold their slots (with requests
        // in flight) through the kill and the replacement's connect however fast they run. The victim starts only
        // then, so that it is killed while its slow requests are still in the core.
        final Path resume = temp.resolve("resume");
        try (InferenceCore core = IpcTestSupport.standardCore();
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().maxClients(3).build());
            ChildProcess first = ChildProcess.start(IpcClientMain.class, name, "add_sub", "1", "3000",
                resume.toString());
            ChildProcess second = ChildProcess.start(IpcClientMain.class, name, "add_sub_batched", "1", "3000",
                resume.toString()))
        {
            first.awaitLine("HALFWAY", 120);
            second.awaitLine("HALFWAY", 120);
            try (ChildProcess victim = ChildProcess.start(IpcVictimMain.class, name, "8"))
            {
                final int slot = Integer.parseInt(victim.awaitLine("SUBMITTED", 120).split(" ")[1]);
                awaitStatistics(server, s -> s.activeClients() == 3, "all three clients are connected");
                victim.kill();
                awaitStatistics(server, s -> s.clientsReclaimed() >= 1, "the killed client's slot is reclaimed");
                final IpcServerStatistics afterKill = server.statistics();
                assertTrue(afterKill.responsesDropped() >= 1, "its pending responses were dropped: " + afterKill);

                try (IpcClient replacement = IpcClient.connect(name))
                {
                    assertEquals(slot, replacement.slot(), "the only free slot is the killed client's");
                    try (IpcTensor a = replacement.allocate(IpcDataType.FP32, 16))
                    {
                        putFloats(a.segment(), new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
                        try (IpcResponse response = replacement.await(replacement.submit(new IpcRequest("add_sub")
                            .addInput("INPUT0", a).addInput("INPUT1", a)), Duration.ofSeconds(30)).throwIfError())
                        {
                            assertEquals(32, floats(response.output("OUTPUT0").segment(), 16)[15]);
                        }
                    }
                }
            }
            Files.createFile(resume);
            assertEquals("OK 3000", first.awaitLine("OK", 240), first.output());
            assertEquals("OK 3000", second.awaitLine("OK", 240), second.output());
            assertEquals(0, first.awaitExit(60));
            assertEquals(0, second.awaitExit(60));
        }
    }

    @Test
    void aDeadOrRestartedServerIsAClearErrorNotAHang() throws Exception
    {
        final String name = IpcTestSupport.uniqueName("ipc-restart");
        final IpcClient client;
        final IpcTensor a;
        final long inFlight;
        try (ChildProcess serverProcess = ChildProcess.start(IpcServerMain.class, name))
        {
            final String serving = serverProcess.awaitLine("SERVING", 120);
            assertEquals("1", serving.split(" ")[2], "a fresh name starts at generation 1");
            client = IpcClient.connect(name);
            a = client.allocate(IpcDataType.FP32, 16);
            client.await(client.submit(new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", a)),
                Duration.ofSeconds(30)).throwIfError().close();
            inFlight = client.submit(new IpcRequest("slow").addInput("INPUT0", a));
            serverProcess.kill();
        }
        try (client)
        {
            final long start = System.nanoTime();
            final IpcServerGoneException dead = assertThrows(IpcServerGoneException.class,
                () -> client.await(inFlight, Duration.ofSeconds(60)), "a request in flight when the server died");
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "noticed promptly");
            assertFalse(dead.restarted());
            final IpcServerGoneException gone = assertThrows(IpcServerGoneException.class,
                () -> client.submit(new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", a)));
            assertFalse(gone.restarted());
            assertTrue(gone.getMessage().contains("no longer runs") || gone.getMessage().contains("stopped "
                + "responding"), gone.getMessage());

            try (InferenceCore core = IpcTestSupport.core(IpcTestSupport.addSub());
                IpcServer restarted = IpcServer.start(core, name, IpcTestSupport.testOptions().build()))
            {
                assertEquals(2, restarted.generation(), "the new server replaced the dead one's file");
                final IpcServerGoneException again = assertThrows(IpcServerGoneException.class,
                    () -> client.submit(new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", a)));
                assertTrue(again.restarted(), again.getMessage());
                assertTrue(again.getMessage().contains("generation 1 -> 2"), again.getMessage());
                try (IpcClient fresh = IpcClient.connect(name); IpcTensor b = fresh.allocate(IpcDataType.FP32, 16))
                {
                    fresh.await(fresh.submit(new IpcRequest("add_sub").addInput("INPUT0", b).addInput("INPUT1", b)),
                        Duration.ofSeconds(30)).throwIfError().close();
                    assertEquals(2, fresh.generation());
                }
            }
        }
    }

    static void awaitStatistics(final IpcServer server, final Predicate<IpcServerStatistics> condition,
        final String what)
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.test(server.statistics()))
        {
            assertTrue(System.nanoTime() < deadline, what + ": " + server.statistics());
            try
            {
                Thread.sleep(5);
            }
            catch (final InterruptedException ex)
            {
                throw new AssertionError(ex);
            }
        }
    }
}
