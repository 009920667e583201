package io.ingot.server.ipc;

import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.device.DeviceDiscovery;
import io.ingot.device.HostRegistration;
import io.ingot.device.PinnedAllocators;
import io.ingot.ipc.IpcCapacityException;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcNameInUseException;
import io.ingot.ipc.IpcServerGoneException;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcOutput;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcRequestFailedException;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.ingot.server.ipc.IpcTestSupport.floats;
import static io.ingot.server.ipc.IpcTestSupport.putFloats;
import static org.junit.jupiter.api.Assertions.*;

/** Server and Java client in one JVM: the protocol end to end against the real core. */
class IpcServerTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static InferenceCore core;
    private String name;
    private IpcServer server;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void openCore()
    {
        core = IpcTestSupport.standardCore();
    }

    @AfterAll
    static void closeCore()
    {
        core.close();
    }

    @BeforeEach
    void startServer()
    {
        name = IpcTestSupport.uniqueName("ipc-server-test");
        server = IpcServer.start(core, name, IpcTestSupport.testOptions().maxClients(3).build());
    }

    @AfterEach
    void stopServer() throws Exception
    {
        for (final AutoCloseable closeable : closeables.reversed())
        {
            closeable.close();
        }
        server.close();
        assertFalse(Files.exists(server.path()), "close removes the region file");
    }

    private IpcClient connect()
    {
        final IpcClient client = IpcClient.connect(name);
        closeables.add(client);
        return client;
    }

    private static IpcRequest addSubRequest(final IpcTensor a, final IpcTensor b)
    {
        return new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", b)
            .requestOutput("OUTPUT0").requestOutput("OUTPUT1");
    }

    @Test
    void theDataRegionIsPinnedForTheGpuWhenOneIsUsableAndSaysWhyNotOtherwise()
    {
        final DeviceDiscovery.Result discovery = PinnedAllocators.discovery();
        final HostRegistration pinning = server.dataRegionPinning();
        assertEquals(server.layout().maxClients() * server.layout().slabLength(), pinning.memory().byteSize(),
            "the whole data region, every client's slab");
        if (discovery.hasDevices())
        {
            assertTrue(server.isDataRegionPinned(), pinning.toString());
        }
        else
        {
            assertFalse(server.isDataRegionPinned());
            assertEquals("no CUDA device: " + discovery.reason(), pinning.reason());
        }
        try (IpcServer unpinned = IpcServer.start(core, IpcTestSupport.uniqueName("ipc-unpinned"),
            IpcTestSupport.testOptions().maxClients(1).pinDataRegion(false).build()))
        {
            assertFalse(unpinned.isDataRegionPinned());
            assertEquals("pinDataRegion is off", unpinned.dataRegionPinning().reason());
        }
    }

    @Test
    void withoutOptionsTheIpcThreadWaitsAsItsCoresThreadsDo()
    {
        for (final IdleMode mode : IdleMode.values())
        {
            try (InferenceCore moded = IpcTestSupport.core(mode, IpcTestSupport.identity());
                IpcServer defaulted = IpcServer.start(moded, IpcTestSupport.uniqueName("ipc-idle")))
            {
                assertEquals(mode, defaulted.idleMode(), "the core's IdleMode governs the IPC thread too");
            }
        }
        try (InferenceCore blocking = IpcTestSupport.core(IdleMode.BLOCKING, IpcTestSupport.identity());
            IpcServer own = IpcServer.start(blocking, IpcTestSupport.uniqueName("ipc-own"),
                IpcTestSupport.testOptions().maxClients(1).idleMode(IdleMode.SPINNING).build()))
        {
            assertEquals(IdleMode.SPINNING, own.idleMode(), "options given explicitly win over the core's");
        }
    }

    @Test
    void addSubRoundTripsThroughSharedMemory() throws Exception
    {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(server.path())));
        final IpcClient client = connect();
        final float[] x = new float[16];
        final float[] y = new float[16];
        for (int i = 0; i < 16; i++)
        {
            x[i] = i;
            y[i] = 100 - 2 * i;
        }
        try (IpcTensor a = client.allocate(IpcDataType.FP32, 16); IpcTensor b = client.allocate(IpcDataType.FP32, 16))
        {
            putFloats(a.segment(), x);
            putFloats(b.segment(), y);
            final long id = client.submit(addSubRequest(a, b).id("first"));
            try (IpcResponse response = client.await(id, WAIT).throwIfError())
            {
                assertEquals(id, response.correlationId());
                assertEquals(1, response.modelVersion());
                final IpcOutput sum = response.output("OUTPUT0");
                final IpcOutput difference = response.output("OUTPUT1");
                assertEquals(IpcDataType.FP32, sum.dataType());
                assertArrayEquals(new long[] {16}, sum.shape());
                assertEquals(64, sum.byteLength());
                final long outputArea = client.layout().outputAreaOffset(client.slot());
                assertTrue(sum.offset() >= outputArea && difference.offset() >= outputArea,
                    "outputs are written into this client's output area");
                for (int i = 0; i < 16; i++)
                {
                    assertEquals(x[i] + y[i], floats(sum.segment(), 16)[i]);
                    assertEquals(x[i] - y[i], floats(difference.segment(), 16)[i]);
                }
            }
        }
        awaitStatistics(s -> s.releasesAccepted() == 2, "closing the response released both outputs");
        final IpcServerStatistics statistics = server.statistics();
        assertEquals(1, statistics.requestsReceived());
        assertEquals(1, statistics.responsesSent());
        assertEquals(0, statistics.releasesRejected());
    }

    @Test
    void aMebibyteIdentityComesBackIntact()
    {
        final IpcClient client = connect();
        final int count = 256 * 1024;
        try (IpcTensor input = client.allocate(IpcDataType.FP32, count))
        {
            final Random random = new Random(1);
            for (int i = 0; i < count; i++)
            {
                input.segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, random.nextFloat());
            }
            final long id = client.submit(new IpcRequest("identity").addInput("INPUT0", input));
            try (IpcResponse response = client.await(id, WAIT).throwIfError())
            {
                final MemorySegment output = response.output("OUTPUT0").segment();
                assertEquals(4L * count, output.byteSize());
                assertEquals(-1, output.mismatch(input.segment()), "every byte comes back");
            }
        }
    }

    @Test
    void manyPipelinedRequestsEachGetTheirOwnAnswer()
    {
        final IpcClient client = connect();
        final int requests = 300;
        final Map<Long, float[]> expected = new HashMap<>();
        final Map<Long, IpcTensor[]> tensors = new HashMap<>();
        final Random random = new Random(2);
        final List<IpcResponse> responses = new ArrayList<>();
        for (int r = 0; r < requests; r++)
        {
            final IpcTensor a = client.allocate(IpcDataType.FP32, 16);
            final IpcTensor b = client.allocate(IpcDataType.FP32, 16);
            final float[] x = new float[16];
            final float[] y = new float[16];
            for (int i = 0; i < 16; i++)
            {
                x[i] = random.nextInt(1000);
                y[i] = random.nextInt(1000);
            }
            putFloats(a.segment(), x);
            putFloats(b.segment(), y);
            final float[] sum = new float[16];
            for (int i = 0; i < 16; i++)
            {
                sum[i] = x[i] + y[i];
            }
            final long id = client.submit(addSubRequest(a, b).clearOutputs().requestOutput("OUTPUT0"));
            expected.put(id, sum);
            tensors.put(id, new IpcTensor[] {a, b});
            IpcResponse ready;
            while ((ready = client.poll()) != null)
            {
                responses.add(ready);
            }
        }
        while (responses.size() < requests)
        {
            final IpcResponse response = client.poll();
            if (response != null)
            {
                responses.add(response);
            }
            else
            {
                Thread.onSpinWait();
            }
        }
        for (final IpcResponse response : responses)
        {
            try (response)
            {
                response.throwIfError();
                assertEquals(1, response.outputCount(), "only OUTPUT0 was requested");
                assertArrayEquals(expected.remove(response.correlationId()),
                    floats(response.output("OUTPUT0").segment(), 16), "response " + response.correlationId());
                for (final IpcTensor tensor : tensors.remove(response.correlationId()))
                {
                    tensor.close();
                }
            }
        }
        assertTrue(expected.isEmpty(), "every request was answered once");
        assertEquals(client.layout().slabInputLength(), client.freeInputBytes(), "every tensor was freed");
    }

    @Test
    void coreErrorsReachTheClientWithTheirCategoryAndMessage()
    {
        final IpcClient client = connect();
        try (IpcTensor a = client.allocate(IpcDataType.FP32, 16); IpcTensor shortOne = client.allocate(
            IpcDataType.FP32, 8))
        {
            final long unknown = client.submit(new IpcRequest("no_such_model").addInput("INPUT0", a));
            try (IpcResponse response = client.await(unknown, WAIT))
            {
                assertEquals(IpcStatus.INVALID_ARG, response.status());
                assertTrue(response.message().contains("'no_such_model'"), response.message());
                final IpcRequestFailedException thrown = assertThrows(IpcRequestFailedException.class,
                    response::throwIfError);
                assertTrue(thrown.getMessage().startsWith("INVALID_ARG: "), thrown.getMessage());
            }
            final long wrongShape = client.submit(addSubRequest(a, shortOne));
            try (IpcResponse response = client.await(wrongShape, WAIT))
            {
                assertEquals(IpcStatus.INVALID_ARG, response.status(), response.message());
                assertTrue(response.message().contains("INPUT1"), response.message());
            }
            final long badVersion = client.submit(addSubRequest(a, a).version(7));
            try (IpcResponse response = client.await(badVersion, WAIT))
            {
                assertEquals(IpcStatus.NOT_FOUND, response.status(), response.message());
            }
        }
    }

    @Test
    void unreleasedOutputsExhaustTheOutputAreaUntilReleased()
    {
        final IpcClient client = connect();
        final int count = 128 * 1024;
        final List<IpcResponse> kept = new ArrayList<>();
        try (IpcTensor input = client.allocate(IpcDataType.FP32, count))
        {
            final long areaBytes = client.layout().outputAreaLength();
            final int fit = (int)(areaBytes / (4L * count));
            for (int r = 0; r < fit; r++)
            {
                kept.add(client.await(client.submit(new IpcRequest("identity").addInput("INPUT0", input)), WAIT)
                    .throwIfError());
            }
            try (IpcResponse full = client.await(client.submit(new IpcRequest("identity").addInput("INPUT0",
                input)), WAIT))
            {
                // The core reports an allocation failure of a batch of one as the batch's failure (INTERNAL),
                // in a batch of several as that request's (UNAVAILABLE); either way with the allocator's reason.
                assertTrue(full.status() == IpcStatus.UNAVAILABLE || full.status() == IpcStatus.INTERNAL,
                    full.message());
                assertTrue(full.message().contains("output area of IPC client slot " + client.slot())
                    && full.message().contains("release"), full.message());
            }
            kept.removeFirst().close();
            try (IpcResponse again = client.await(client.submit(new IpcRequest("identity").addInput("INPUT0",
                input)), WAIT))
            {
                again.throwIfError();
            }
        }
        kept.forEach(IpcResponse::close);
    }

    @Test
    void badFramesAreAnsweredWithTheFieldAtFault() throws Exception
    {
        final RawClient raw = RawClient.connect(name);
        closeables.add(raw);
        final IpcClient neighbour = connect();
        final long foreign = neighbour.layout().slabOffset(neighbour.slot());
        final long own = raw.slabStart;
        assertTrue(raw.write(1, RawClient.infer(1, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, foreign, 64),
            new RawClient.Tensor("INPUT1", IpcDataType.FP32, new long[] {16}, own, 64)), List.of())));
        assertTrue(raw.write(1, RawClient.infer(2, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, raw.slabEnd - 32, 64)), List.of())));
        assertTrue(raw.write(1, RawClient.infer(3, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {1L << 40, 1L << 40}, own, 64)),
            List.of())));
        assertTrue(raw.write(1, RawClient.infer(4, "no_such_model", List.of(), List.of())));
        assertTrue(raw.write(99, new byte[16]), "an unknown record type");
        assertTrue(raw.write(1, new byte[4]), "too short for a correlation id");
        final List<RawClient.Response> responses = raw.await(4, 30);
        assertEquals(4, responses.size(), responses.toString());
        assertTrue(responses.get(0).message().contains("outside this client's slab"), responses.get(0).message());
        assertTrue(responses.get(1).message().contains("outside this client's slab"), responses.get(1).message());
        assertTrue(responses.get(2).message().contains("more elements than a tensor can hold"),
            responses.get(2).message());
        assertTrue(responses.get(3).message().contains("'no_such_model'"), responses.get(3).message());
        for (final RawClient.Response response : responses)
        {
            assertEquals(IpcStatus.INVALID_ARG, response.status());
        }
        awaitStatistics(s -> s.framesDropped() == 2, "the unknown type and the short frame are dropped");
        assertEquals(3, server.statistics().requestsRejected());
    }

    @Test
    void anInputInTheClientsOwnOutputAreaIsRefusedBeforeAnOutputCanOverwriteIt() throws Exception
    {
        final RawClient raw = RawClient.connect(name);
        closeables.add(raw);
        final long outputArea = raw.layout.outputAreaOffset(raw.slot);
        raw.memory().asSlice(raw.slabStart, 64).fill((byte)0);
        raw.memory().asSlice(outputArea, 64).fill((byte)0);
        assertTrue(raw.write(1, RawClient.infer(1, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, raw.slabStart, 64),
            new RawClient.Tensor("INPUT1", IpcDataType.FP32, new long[] {16}, outputArea, 64)), List.of())));
        assertTrue(raw.write(1, RawClient.infer(2, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, raw.slabStart, 64),
            new RawClient.Tensor("INPUT1", IpcDataType.FP32, new long[] {16}, raw.slabStart, 64)), List.of())));
        final List<RawClient.Response> responses = raw.await(2, 30);
        assertEquals(IpcStatus.INVALID_ARG, responses.get(0).status(), responses.get(0).toString());
        assertEquals("input 'INPUT1': bytes [" + outputArea + ", " + outputArea + " + 64) reach into this client's "
            + "output area [" + outputArea + ", " + raw.slabEnd + "), where the server writes outputs; place inputs "
            + "in the input area [" + raw.slabStart + ", " + outputArea + ")", responses.get(0).message());
        assertEquals(IpcStatus.OK, responses.get(1).status(), "the client's next request is served: "
            + responses.get(1));
        assertEquals(1, server.statistics().requestsRejected());
    }

    @Test
    void releasesMustNameLiveOutputsOfTheSameClient() throws Exception
    {
        final RawClient raw = RawClient.connect(name);
        closeables.add(raw);
        raw.memory().asSlice(raw.slabStart, 128).fill((byte)0);
        assertTrue(raw.write(1, RawClient.infer(1, "add_sub", List.of(
            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, raw.slabStart, 64),
            new RawClient.Tensor("INPUT1", IpcDataType.FP32, new long[] {16}, raw.slabStart + 64, 64)),
            List.of("OUTPUT0"))));
        final RawClient.Output output = raw.await(1, 30).getFirst().outputs().getFirst();
        final MemorySegment release = MemorySegment.ofArray(new long[1 + 2 * 3]);
        release.set(ValueLayout.JAVA_INT, 0, 3);
        release.setAtIndex(ValueLayout.JAVA_LONG, 1, output.offset() + 64);
        release.setAtIndex(ValueLayout.JAVA_LONG, 2, output.length());
        release.setAtIndex(ValueLayout.JAVA_LONG, 3, 64);
        release.setAtIndex(ValueLayout.JAVA_LONG, 4, 64);
        release.setAtIndex(ValueLayout.JAVA_LONG, 5, output.offset());
        release.setAtIndex(ValueLayout.JAVA_LONG, 6, output.length());
        assertTrue(raw.write(2, release.toArray(ValueLayout.JAVA_BYTE)));
        awaitStatistics(s -> s.releasesAccepted() + s.releasesRejected() == 3, "all three entries were looked at");
        assertEquals(1, server.statistics().releasesAccepted(), "only the real output is freed");
        assertEquals(2, server.statistics().releasesRejected());
    }

    @Test
    void aSecondServerOnTheSameNameIsRefused()
    {
        final IpcNameInUseException ex = assertThrows(IpcNameInUseException.class,
            () -> IpcServer.start(core, name));
        assertEquals(ProcessHandle.current().pid(), ex.ownerPid());
        assertTrue(ex.getMessage().contains(name), ex.getMessage());
    }

    @Test
    void slotsAreLimitedAndAClosedClientsSlotIsReused() throws Exception
    {
        final IpcClient first = connect();
        connect();
        connect();
        final IpcCapacityException full = assertThrows(IpcCapacityException.class, () -> IpcClient.connect(name));
        assertTrue(full.getMessage().contains("all 3 client slots"), full.getMessage());
        final int freed = first.slot();
        first.close();
        awaitStatistics(s -> s.clientsReclaimed() == 1, "the closed client's slot is reclaimed");
        final IpcClient next = connect();
        assertEquals(freed, next.slot());
        try (IpcTensor a = next.allocate(IpcDataType.FP32, 16))
        {
            next.await(next.submit(addSubRequest(a, a)), WAIT).throwIfError().close();
        }
    }

    @Test
    void closingTheServerIsReportedToItsClients()
    {
        final IpcClient client = connect();
        final IpcTensor a = client.allocate(IpcDataType.FP32, 16);
        server.close();
        final IpcServerGoneException ex = assertThrows(IpcServerGoneException.class,
            () -> client.submit(addSubRequest(a, a)));
        assertFalse(ex.restarted());
        assertTrue(ex.getMessage().contains("has closed"), ex.getMessage());
        assertThrows(io.ingot.ipc.IpcServerNotFoundException.class, () -> IpcClient.connect(name));
    }

    @Test
    void optionsAreCheckedByName()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> IpcServer.start(core, IpcTestSupport.uniqueName("x"), IpcServerOptions.builder().maxClients(0)
                .build()));
        assertTrue(ex.getMessage().contains("maxClients"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IpcServer.start(core, "bad/name"));
    }

    private void awaitStatistics(final java.util.function.Predicate<IpcServerStatistics> condition,
        final String what)
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.test(server.statistics()))
        {
            assertTrue(System.nanoTime() < deadline, what + ": " + server.statistics());
            Thread.onSpinWait();
        }
    }
}
