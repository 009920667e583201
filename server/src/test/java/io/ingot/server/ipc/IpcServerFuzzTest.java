package io.ingot.server.ipc;

import io.ingot.api.InferenceCore;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.InferFrameDecoder;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.ReleaseFrameFlyweight;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.ingot.server.ipc.IpcTestSupport.floats;
import static io.ingot.server.ipc.IpcTestSupport.putFloats;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A hostile client writes random frames, bit-flipped valid frames, bogus releases and unknown record types into its
 * request ring while an honest client checks every answer it gets. The server must answer or drop each frame as the
 * protocol says, never crash, and never touch the honest client's memory.
 */
class IpcServerFuzzTest
{
    private static final int FRAMES = 20_000;

    private OutputAreaOracle oracle;

    @Test
    void fuzzedFramesNeverCrashTheServerOrTouchAnotherClient() throws Exception
    {
        final String name = IpcTestSupport.uniqueName("ipc-fuzz");
        try (InferenceCore core = IpcTestSupport.standardCore();
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().maxClients(2).build());
            IpcClient honest = IpcClient.connect(name);
            RawClient fuzzer = RawClient.connect(name))
        {
            final IpcTensor canary = honest.allocate(IpcDataType.UINT8, 256 * 1024);
            for (int i = 0; i < canary.byteLength(); i++)
            {
                canary.segment().set(ValueLayout.JAVA_BYTE, i, (byte)(i * 7 + 3));
            }
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong honestAnswers = new AtomicLong();
            final AtomicReference<Throwable> honestFailure = new AtomicReference<>();
            final Thread honestThread = Thread.ofPlatform().start(() -> runHonest(honest, stop, honestAnswers,
                honestFailure));

            final Random random = new Random(2024);
            long inferFrames = 0;
            long expectedDropped = 0;
            long shortInfer = 0;
            long responses = 0;
            final long honestOutputs = honest.layout().outputAreaOffset(honest.slot());
            oracle = new OutputAreaOracle(fuzzer);
            for (int frame = 0; frame < FRAMES; frame++)
            {
                final int type;
                final byte[] body;
                switch (random.nextInt(4))
                {
                    case 0 ->
                    {
                        type = 1;
                        body = new byte[random.nextInt(600)];
                        random.nextBytes(body);
                    }
                    case 1 ->
                    {
                        type = 1;
                        body = RawClient.infer(frame, "add_sub", List.of(
                            new RawClient.Tensor("INPUT0", IpcDataType.FP32, new long[] {16}, fuzzer.slabStart, 64),
                            new RawClient.Tensor("INPUT1", IpcDataType.FP32, new long[] {16}, fuzzer.slabStart + 64,
                                64)), List.of("OUTPUT0"));
                        for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
                        {
                            final int bit = random.nextInt(body.length * 8);
                            body[bit >> 3] ^= (byte)(1 << (bit & 7));
                        }
                    }
                    case 2 ->
                    {
                        type = ReleaseFrameFlyweight.TYPE;
                        body = bogusRelease(random, honestOutputs, fuzzer.layout.outputAreaOffset(fuzzer.slot));
                    }
                    default ->
                    {
                        type = 3 + random.nextInt(100);
                        body = new byte[random.nextInt(64)];
                        random.nextBytes(body);
                    }
                }
                if (type == 1)
                {
                    oracle.sent(body);
                    inferFrames++;
                    shortInfer += body.length < 8 ? 1 : 0;
                    expectedDropped += body.length < 8 ? 1 : 0;
                }
                else if (type == ReleaseFrameFlyweight.TYPE)
                {
                    expectedDropped += malformedRelease(body) ? 1 : 0;
                }
                else
                {
                    expectedDropped++;
                }
                while (!fuzzer.write(type, body))
                {
                    responses += answer(fuzzer);
                    Thread.onSpinWait();
                }
                responses += answer(fuzzer);
                assertNull(honestFailure.get(), "the honest client saw a wrong answer");
            }
            final long answerable = inferFrames - shortInfer;
            final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (responses < answerable && System.nanoTime() < deadline)
            {
                responses += answer(fuzzer);
                Thread.sleep(1);
            }
            stop.set(true);
            honestThread.join();
            assertNull(honestFailure.get(), () -> "the honest client saw a wrong answer: " + honestFailure.get());
            assertTrue(honestAnswers.get() > 0, "the honest client was served during the fuzzing");

            final IpcServerStatistics statistics = server.statistics();
            System.out.println("fuzz: " + FRAMES + " frames (" + inferFrames + " INFER), " + responses
                + " answered, honest client served " + honestAnswers.get() + " requests; " + statistics);
            assertEquals(inferFrames, statistics.requestsReceived() - honestAnswers.get(), statistics.toString());
            assertEquals(expectedDropped, statistics.framesDropped(), "every dropped frame is counted: "
                + statistics);
            assertEquals(answerable, responses, "every INFER frame with a correlation id was answered once");
            oracle.check();
            assertTrue(statistics.releasesRejected() > 0, "releases of foreign memory are refused: " + statistics);
            for (int i = 0; i < canary.byteLength(); i++)
            {
                assertEquals((byte)(i * 7 + 3), canary.segment().get(ValueLayout.JAVA_BYTE, i),
                    "the honest client's memory is untouched at byte " + i);
            }

            // A record header that points outside the ring cannot be resynchronised: only the fuzzer is cut off.
            final int index = fuzzer.requests.tryClaim(1, 64);
            assertNotEquals(IpcRingWriter.INSUFFICIENT_CAPACITY, index);
            SharedMemory.putIntRelease(fuzzer.requests.buffer(), index - 8, 1 << 24);
            IpcMultiProcessTest.awaitStatistics(server, s -> s.clientsFaulted() == 1, "the fuzzer is faulted");
            assertEquals(ClientEntryDescriptor.FAULTED, fuzzer.entry.state());
            assertTrue(fuzzer.entry.faultMessage().contains("request ring corrupt"), fuzzer.entry.faultMessage());
            try (IpcTensor a = honest.allocate(IpcDataType.FP32, 16))
            {
                putFloats(a.segment(), new float[16]);
                honest.await(honest.submit(new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", a)),
                    Duration.ofSeconds(30)).throwIfError().close();
            }
        }
    }

    private int answer(final RawClient fuzzer)
    {
        final List<RawClient.Response> received = fuzzer.drain();
        for (final RawClient.Response response : received)
        {
            oracle.answered(response);
            if (response.status() == IpcStatus.OK && !response.outputs().isEmpty())
            {
                final MemorySegment release = MemorySegment.ofArray(new byte[ReleaseFrameFlyweight.encodedLength(
                    response.outputs().size())]);
                final ReleaseFrameFlyweight frame = new ReleaseFrameFlyweight().wrap(release, 0)
                    .count(response.outputs().size());
                for (int i = 0; i < response.outputs().size(); i++)
                {
                    frame.entry(i, response.outputs().get(i).offset(), response.outputs().get(i).length());
                }
                fuzzer.write(ReleaseFrameFlyweight.TYPE, release.toArray(ValueLayout.JAVA_BYTE));
            }
        }
        return received.size();
    }

    /**
     * The oracle for inputs in the fuzzer's own output area (where the server allocates outputs, which could overwrite
     * such an input before the model reads it): a frame whose inputs lie in the slab but reach into that area must be
     * refused. It decodes each frame as sent with the whole slab allowed, to learn where its inputs lie, and counts per
     * correlation id (bit flips can make two frames share one) the frames sent, those that must be refused and the OK
     * answers.
     */
    private static final class OutputAreaOracle
    {
        private final InferFrameDecoder permissive = new InferFrameDecoder();
        private final RawClient fuzzer;
        private final long outputArea;
        private final Map<Long, Integer> sent = new HashMap<>();
        private final Map<Long, Integer> mustRefuse = new HashMap<>();
        private final Map<Long, Integer> ok = new HashMap<>();

        OutputAreaOracle(final RawClient fuzzer)
        {
            this.fuzzer = fuzzer;
            this.outputArea = fuzzer.layout.outputAreaOffset(fuzzer.slot);
        }

        void sent(final byte[] body)
        {
            final MemorySegment frame = MemorySegment.ofArray(body);
            if (permissive.decode(frame, 0, body.length, fuzzer.memory(), fuzzer.slabStart, fuzzer.slabEnd,
                fuzzer.slabEnd) != IpcStatus.OK)
            {
                return;
            }
            sent.merge(permissive.correlationId(), 1, Integer::sum);
            for (int i = 0; i < permissive.inputCount(); i++)
            {
                if (permissive.inputLength(i) > 0 && permissive.inputOffset(i) + permissive.inputLength(i) > outputArea)
                {
                    mustRefuse.merge(permissive.correlationId(), 1, Integer::sum);
                    return;
                }
            }
        }

        void answered(final RawClient.Response response)
        {
            if (response.status() == IpcStatus.OK)
            {
                ok.merge(response.correlationId(), 1, Integer::sum);
            }
        }

        void check()
        {
            assertFalse(mustRefuse.isEmpty(), "the fuzzing moved some input into the output area");
            mustRefuse.forEach((id, refused) -> assertTrue(ok.getOrDefault(id, 0) <= sent.get(id) - refused,
                () -> "correlation id " + id + ": " + refused + " of its " + sent.get(id) + " frames put an input in "
                    + "the output area, yet " + ok.get(id) + " were answered OK"));
            System.out.println("fuzz: " + mustRefuse.values().stream().mapToInt(Integer::intValue).sum()
                + " frames with an input in the output area, all refused");
        }
    }

    private static byte[] bogusRelease(final Random random, final long honestOutputs, final long ownOutputs)
    {
        final int count = random.nextInt(70);
        final boolean rightLength = random.nextInt(4) > 0;
        final int length = rightLength ? ReleaseFrameFlyweight.encodedLength(count) : random.nextInt(1200);
        final MemorySegment frame = MemorySegment.ofArray(new byte[length]);
        if (length >= ReleaseFrameFlyweight.ENTRIES_OFFSET)
        {
            frame.set(SharedMemory.INT, 0, count);
        }
        for (int i = 0; ReleaseFrameFlyweight.ENTRIES_OFFSET + (i + 1) * 16 <= length; i++)
        {
            final long base = random.nextBoolean() ? honestOutputs : ownOutputs;
            frame.set(SharedMemory.LONG, 8 + i * 16L, base + 64L * random.nextInt(64));
            frame.set(SharedMemory.LONG, 16 + i * 16L, 64L * random.nextInt(3));
        }
        return frame.toArray(ValueLayout.JAVA_BYTE);
    }

    private static boolean malformedRelease(final byte[] body)
    {
        if (body.length < ReleaseFrameFlyweight.ENTRIES_OFFSET)
        {
            return true;
        }
        final int count = MemorySegment.ofArray(body).get(SharedMemory.INT, 0);
        return count < 1 || count > IpcLimits.MAX_RELEASES || body.length != ReleaseFrameFlyweight.encodedLength(count);
    }

    private static void runHonest(final IpcClient client, final AtomicBoolean stop, final AtomicLong answers,
        final AtomicReference<Throwable> failure)
    {
        final Random random = new Random(1);
        try (IpcTensor a = client.allocate(IpcDataType.FP32, 16); IpcTensor b = client.allocate(IpcDataType.FP32, 16))
        {
            final IpcRequest request = new IpcRequest("add_sub").addInput("INPUT0", a).addInput("INPUT1", b);
            while (!stop.get())
            {
                final float[] x = new float[16];
                final float[] y = new float[16];
                for (int i = 0; i < 16; i++)
                {
                    x[i] = random.nextInt(1 << 20);
                    y[i] = random.nextInt(1 << 20);
                }
                putFloats(a.segment(), x);
                putFloats(b.segment(), y);
                try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(60))
                    .throwIfError())
                {
                    final float[] sum = floats(response.output("OUTPUT0").segment(), 16);
                    final float[] difference = floats(response.output("OUTPUT1").segment(), 16);
                    for (int i = 0; i < 16; i++)
                    {
                        if (sum[i] != x[i] + y[i] || difference[i] != x[i] - y[i])
                        {
                            throw new AssertionError("wrong answer at element " + i + ": " + sum[i] + ", "
                                + difference[i] + " for " + x[i] + ", " + y[i]);
                        }
                    }
                }
                answers.incrementAndGet();
            }
        }
        catch (final Throwable ex)
        {
            failure.set(ex);
        }
    }
}
