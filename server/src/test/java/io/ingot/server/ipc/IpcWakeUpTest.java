package io.ingot.server.ipc;

import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.SharedMemory;
import io.ingot.libc.Futex;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcClientOptions;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static io.ingot.server.ipc.IpcTestSupport.floats;
import static io.ingot.server.ipc.IpcTestSupport.putFloats;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The doorbells of docs/ipc.md, "Wake-ups": a sleeping IPC thread is woken by the client that writes a frame, and a
 * client sleeping for its response is woken by the server that writes it, not by a timeout.
 */
@Isolated("timing: measures delays or idle periods, which tests running beside it would disturb")
class IpcWakeUpTest
{
    @Test
    void aSleepingServerIsWokenByTheClientsRing()
    {
        assumeTrue(Futex.isAvailable(), Futex.unavailableReason());
        final String name = IpcTestSupport.uniqueName("ipc-wake-server");
        try (InferenceCore core = IpcTestSupport.core(IdleMode.BLOCKING, IpcTestSupport.identity());
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().idleMode(IdleMode.BLOCKING)
                .build());
            IpcClient client = IpcClient.connect(name);
            IpcTensor input = client.allocate(IpcDataType.FP32, 4))
        {
            final IpcRequest request = new IpcRequest("identity").addInput("INPUT0", input);
            final int requests = 30;
            for (int i = 0; i < requests; i++)
            {
                // Long enough for the IPC thread to finish spinning and yielding and go to sleep.
                LockSupport.parkNanos(10_000_000L);
                putFloats(input.segment(), new float[] {i, i + 1, i + 2, i + 3});
                try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(30)))
                {
                    response.throwIfError();
                    assertArrayEquals(new float[] {i, i + 1, i + 2, i + 3},
                        floats(response.output("OUTPUT0").segment(), 4));
                }
            }
            final IpcServerStatistics statistics = server.statistics();
            assertTrue(statistics.idleSleeps() >= requests, "the IPC thread slept between requests: " + statistics);
            // Each request (and each RELEASE of its output) rings. A sleep that times out just before the frame
            // lands, or a server still yielding on a loaded machine, is not a wake-up: allow for many of those.
            // Without the ring there are none at all.
            assertTrue(statistics.doorbellWakeUps() >= requests / 4,
                "clients' rings ended the IPC thread's sleeps: " + statistics);
        }
    }

    @Test
    void spinningSidesNeverSleepAndStillAnswerEveryRequest()
    {
        final String name = IpcTestSupport.uniqueName("ipc-spin");
        try (InferenceCore core = IpcTestSupport.core(IdleMode.BLOCKING, IpcTestSupport.identity());
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().idleMode(IdleMode.SPINNING)
                .build());
            IpcClient client = IpcClient.connect(name, IpcClientOptions.DEFAULTS.withBusySpin(true));
            IpcTensor input = client.allocate(IpcDataType.FP32, 2))
        {
            final IpcRequest request = new IpcRequest("identity").addInput("INPUT0", input);
            for (int i = 0; i < 20; i++)
            {
                putFloats(input.segment(), new float[] {i, -i});
                try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(30)))
                {
                    response.throwIfError();
                    assertArrayEquals(new float[] {i, -i}, floats(response.output("OUTPUT0").segment(), 2));
                }
            }
            assertEquals(0, server.statistics().idleSleeps(), server.statistics().toString());
            assertEquals(0, client.doorbellWakeUps());
        }
    }

    @Test
    void aClientWaitingForASlowModelIsWokenByTheServersRing()
    {
        assumeTrue(Futex.isAvailable(), Futex.unavailableReason());
        final String name = IpcTestSupport.uniqueName("ipc-wake-client");
        // 40 ms per request: far longer than the client's spinning and yielding, so it sleeps on its doorbell.
        try (InferenceCore core = IpcTestSupport.core(IpcTestSupport.slow(40_000));
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().build());
            IpcClient client = IpcClient.connect(name);
            IpcTensor input = client.allocate(IpcDataType.FP32, 16))
        {
            final IpcRequest request = new IpcRequest("slow").addInput("INPUT0", input);
            final int requests = 8;
            for (int i = 0; i < requests; i++)
            {
                try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(30)))
                {
                    response.throwIfError();
                }
            }
            // The client's sleeps last at most 5 ms; only the server's ring ends one with the doorbell moved.
            assertTrue(client.doorbellWakeUps() >= requests / 2, "the server's rings woke the client: "
                + client.doorbellWakeUps() + " wake-ups for " + requests + " requests");
        }
    }

    @Test
    void eachKindOfClientIsWokenTheWayItWaits()
    {
        assertEquals(ClientWaker.WAKE_IF_FLAGGED, ClientWaker.wakeModeOf(ClientEntryDescriptor.KIND_JAVA, 0));
        assertEquals(ClientWaker.WAKE_ALWAYS, ClientWaker.wakeModeOf(ClientEntryDescriptor.KIND_PYTHON, 0),
            "a Python client without client_flags raises no waiting flag: always woken");
        assertEquals(ClientWaker.WAKE_CHANGE_THEN_FLAG, ClientWaker.wakeModeOf(ClientEntryDescriptor.KIND_PYTHON,
            ClientEntryDescriptor.FLAG_WAITS_WITHOUT_FENCE));
        assertEquals(ClientWaker.WAKE_CHANGE_THEN_FLAG, ClientWaker.wakeModeOf(0,
            ClientEntryDescriptor.FLAG_WAITS_WITHOUT_FENCE));
    }

    /**
     * An older Python client does not write {@code client_flags}: the server zeroes them (and {@code client_waiting})
     * when it frees an entry, so such a client never inherits its predecessor's and is woken after every response.
     */
    @Test
    void aFreedEntryForgetsItsClientsFlags() throws Exception
    {
        final String name = IpcTestSupport.uniqueName("ipc-flags");
        try (InferenceCore core = IpcTestSupport.core(IpcTestSupport.identity());
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().maxClients(1).build()))
        {
            final MemorySegment memory = server.memory();
            final long entryOffset = server.layout().clientEntryOffset(0);
            final ClientEntryFlyweight entry = new ClientEntryFlyweight().wrap(memory, entryOffset);
            try (IpcClient client = IpcClient.connect(name))
            {
                assertEquals(0, entry.clientFlags(), "a Java client registers without flags");
                // What a Python client that waits without a fence leaves behind.
                memory.set(SharedMemory.INT, entryOffset + ClientEntryDescriptor.CLIENT_FLAGS_OFFSET,
                    ClientEntryDescriptor.FLAG_WAITS_WITHOUT_FENCE);
                memory.set(SharedMemory.INT, entryOffset + ClientEntryDescriptor.CLIENT_WAITING_OFFSET, 1);
            }
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (entry.state() != ClientEntryDescriptor.FREE && System.nanoTime() < deadline)
            {
                Thread.sleep(2);
            }
            assertEquals(ClientEntryDescriptor.FREE, entry.state(), "the entry was freed");
            assertEquals(0, entry.clientFlags());
            assertEquals(0, memory.get(SharedMemory.INT, entryOffset + ClientEntryDescriptor.CLIENT_WAITING_OFFSET));
        }
    }
}
