package io.ingot.trt.shim;

import io.ingot.tensor.DataType;
import io.ingot.trt.testing.FakePlan;
import io.ingot.trt.testing.FakeTrtShim;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FFM binding of the shim, exercised through the shim's test double: introspection, type and shape mapping,
 * profiles, execution on host pointers, error propagation and logger upcalls from native threads.
 */
class TrtShimBindingTest
{
    private static final String PLAN = FakePlan.text(
        "input  INPUT0 FLOAT -1x4",
        "input  INPUT1 FLOAT -1x4",
        "input  IDS INT64 -1x3",
        "input  IMAGE HALF 2x8x4x4 format=CHW2",
        "output SUM FLOAT -1x4 = add INPUT0 INPUT1",
        "output DIFF FLOAT -1x4 = sub INPUT0 INPUT1",
        "output IDS_OUT INT64 -1x3 = copy IDS",
        "profile 0 INPUT0 1x4 2x4 4x4",
        "profile 0 INPUT1 1x4 2x4 4x4",
        "profile 0 IDS 1x3 2x3 4x3",
        "profile 1 INPUT0 4x4 8x4 16x4",
        "profile 1 INPUT1 4x4 8x4 16x4",
        "profile 1 IDS 4x3 8x3 16x3");

    private static TrtRuntime runtime;

    @BeforeAll
    static void setUp()
    {
        FakeTrtShim.install();
        runtime = TrtRuntime.create();
    }

    @AfterAll
    static void tearDown()
    {
        if (runtime != null)
        {
            runtime.close();
        }
    }

    @Test
    void bindsTheTestDoubleThroughTheSameBinding()
    {
        assertTrue(TrtShim.isAvailable(), () -> TrtShim.unavailableReason().orElse(""));
        assertTrue(TrtShim.describe().contains("test double"), TrtShim.describe());
        assertEquals(0, TrtShim.libVersion());
        assertEquals(0, TrtShim.headerVersion());
        assertEquals("", TrtShim.lastError());
    }

    @Test
    void bindsExactlyTheFunctionsTheHeaderDeclares() throws IOException
    {
        final String header = Files.readString(FakeTrtShim.HEADER, StandardCharsets.UTF_8);
        final Matcher matcher = Pattern.compile("INGOT_TRT_API\\s+[^;(]*?\\b(ingot_trt_\\w+)\\s*\\(").matcher(header);
        final Set<String> declared = new TreeSet<>();
        while (matcher.find())
        {
            declared.add(matcher.group(1));
        }
        assertEquals(26, declared.size(), declared::toString);
        assertEquals(declared, new TreeSet<>(TrtShim.BOUND_FUNCTIONS));
    }

    @Test
    void describesTensorsTypesFormatsAndProfiles()
    {
        try (Arena arena = Arena.ofConfined(); TrtCudaEngine engine = deserialize(arena, PLAN))
        {
            final EngineSignature signature = engine.signature();
            assertEquals(List.of("INPUT0", "INPUT1", "IDS", "IMAGE", "SUM", "DIFF", "IDS_OUT"),
                signature.tensors().stream().map(EngineTensor::name).toList());
            final EngineTensor input0 = signature.tensor("INPUT0");
            assertEquals(TensorIoMode.INPUT, input0.mode());
            assertEquals(TrtDataType.FLOAT, input0.dataType());
            assertEquals(DataType.FP32, input0.dataType().ingotType());
            assertArrayEquals(new long[] {-1, 4}, input0.shape());
            assertTrue(input0.isDynamic());
            assertEquals(DataType.INT64, signature.tensor("IDS").dataType().ingotType());
            final EngineTensor image = signature.tensor("IMAGE");
            assertEquals(TrtDataType.HALF, image.dataType());
            assertEquals(DataType.FP16, image.dataType().ingotType());
            assertEquals(TrtTensorFormat.CHW2, image.format());
            assertArrayEquals(new long[] {2, 8, 4, 4}, image.shape());
            assertEquals(TensorIoMode.OUTPUT, signature.tensor("SUM").mode());
            assertEquals(List.of("SUM", "DIFF", "IDS_OUT"),
                signature.outputs().stream().map(EngineTensor::name).toList());

            assertEquals(2, signature.profiles().size());
            final ShapeRange first = signature.profiles().get(0).range("INPUT0");
            assertArrayEquals(new long[] {1, 4}, first.min());
            assertArrayEquals(new long[] {2, 4}, first.opt());
            assertArrayEquals(new long[] {4, 4}, first.max());
            final ShapeRange second = signature.profiles().get(1).range("IDS");
            assertArrayEquals(new long[] {16, 3}, second.max());
            // A static input's profile range is its own shape.
            assertArrayEquals(new long[] {2, 8, 4, 4}, signature.profiles().get(1).range("IMAGE").max());
            assertNull(signature.profiles().get(0).range("SUM"), "profiles describe inputs only");
            assertEquals(2, signature.maxBatch(0), "the static IMAGE input (first dimension 2) caps the batch");
            assertEquals(2, signature.maxBatch(1));
            assertEquals(2, signature.minBatch(0));
        }
    }

    @Test
    void mapsEveryTensorRtDataType()
    {
        final DataType[] expected = {DataType.FP32, DataType.FP16, DataType.INT8, DataType.INT32, DataType.BOOL,
            DataType.UINT8, null, DataType.BF16, DataType.INT64, null, null, null};
        for (int code = 0; code < expected.length; code++)
        {
            assertEquals(code, TrtDataType.of(code).code());
            assertEquals(expected[code], TrtDataType.of(code).ingotType(), "TensorRT DataType " + code);
        }
        final TrtException unknown = assertThrows(TrtException.class, () -> TrtDataType.of(12));
        assertTrue(unknown.getMessage().contains("unknown TensorRT DataType value 12"), unknown.getMessage());
        assertEquals(TrtTensorFormat.DHWC, TrtTensorFormat.of(12));
        assertEquals(TensorIoMode.OUTPUT, TensorIoMode.of(2));
    }

    @Test
    void executesWithShapesAndAddressesSetThroughTheBinding()
    {
        try (Arena arena = Arena.ofConfined(); TrtCudaEngine engine = deserialize(arena, PLAN);
             TrtExecutionContext context = engine.createContext())
        {
            final long[] shape = {3, 4};
            assertTrue(context.setInputShape(engine.cName("INPUT0"), shape, 2), TrtShim::lastError);
            assertTrue(context.setInputShape(engine.cName("INPUT1"), shape, 2), TrtShim::lastError);
            assertTrue(context.setInputShape(engine.cName("IDS"), new long[] {3, 3}, 2), TrtShim::lastError);
            final long[] resolved = new long[TrtShim.MAX_DIMS];
            assertEquals(2, context.tensorShape(engine.cName("SUM"), resolved));
            assertEquals(3, resolved[0]);
            assertEquals(4, resolved[1]);

            final float[] a = new float[12];
            final float[] b = new float[12];
            for (int i = 0; i < 12; i++)
            {
                a[i] = i * 1.5f;
                b[i] = 100 - i;
            }
            final MemorySegment input0 = arena.allocateFrom(ValueLayout.JAVA_FLOAT, a);
            final MemorySegment input1 = arena.allocateFrom(ValueLayout.JAVA_FLOAT, b);
            final MemorySegment ids = arena.allocateFrom(ValueLayout.JAVA_LONG, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            final MemorySegment sum = arena.allocate(48, 256);
            final MemorySegment diff = arena.allocate(48, 256);
            final MemorySegment idsOut = arena.allocate(72, 256);
            context.setTensorAddress(engine.cName("INPUT0"), input0);
            context.setTensorAddress(engine.cName("INPUT1"), input1);
            context.setTensorAddress(engine.cName("IDS"), ids);
            context.setTensorAddress(engine.cName("IMAGE"), arena.allocate(2 * 8 * 4 * 4 * 2, 256));
            context.setTensorAddress(engine.cName("SUM"), sum);
            context.setTensorAddress(engine.cName("DIFF"), diff);
            context.setTensorAddress(engine.cName("IDS_OUT"), idsOut);
            context.enqueue(MemorySegment.NULL);

            final float[] sums = sum.toArray(ValueLayout.JAVA_FLOAT);
            final float[] diffs = diff.toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < 12; i++)
            {
                assertEquals(a[i] + b[i], sums[i]);
                assertEquals(a[i] - b[i], diffs[i]);
            }
            assertArrayEquals(new long[] {7, 8, 9, 10, 11, 12, 13, 14, 15}, idsOut.toArray(ValueLayout.JAVA_LONG));
        }
    }

    @Test
    void reportsTheShimsReasonWhenAShapeIsOutsideTheProfile()
    {
        final String marker = UUID.randomUUID().toString();
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        final TrtLogListener listener = (severity, message) ->
        {
            if (severity == TrtSeverity.ERROR)
            {
                errors.add(message);
            }
        };
        TrtLogger.addListener(listener);
        try (Arena arena = Arena.ofConfined(); TrtCudaEngine engine = deserialize(arena, PLAN);
             TrtExecutionContext context = engine.createContext())
        {
            assertFalse(context.setInputShape(engine.cName("INPUT0"), new long[] {5, 4}, 2));
            final String reason = TrtShim.lastError();
            assertTrue(reason.contains("dimension 0 of 'INPUT0' is 5, outside [1, 4] of optimization profile 0"),
                reason);
            assertTrue(errors.contains(reason), "the shim logs its errors at ERROR, as TensorRT does: " + errors);

            context.setOptimizationProfile(1, MemorySegment.NULL);
            assertTrue(context.setInputShape(engine.cName("INPUT0"), new long[] {5, 4}, 2), TrtShim::lastError);
            assertEquals("", TrtShim.lastError(), "a successful call clears the last error");

            final TrtException badProfile = assertThrows(TrtException.class,
                () -> context.setOptimizationProfile(2, MemorySegment.NULL));
            assertTrue(badProfile.getMessage().contains("setOptimizationProfileAsync(2) failed")
                && badProfile.getMessage().contains("profile index 2 is out of range"), badProfile.getMessage());
            final TrtException notSet = assertThrows(TrtException.class, () -> context.enqueue(MemorySegment.NULL));
            assertTrue(notSet.getMessage().contains("enqueueV3 failed"), notSet.getMessage());
            assertTrue(marker.length() > 0);
        }
        finally
        {
            TrtLogger.removeListener(listener);
        }
    }

    @Test
    void aCorruptPlanFailsWithTheShimsReason()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final TrtException notAPlan = assertThrows(TrtException.class,
                () -> deserialize(arena, "PK\u0003\u0004 this is a zip file, not an engine"));
            assertTrue(notAPlan.getMessage().startsWith("deserializeCudaEngine failed: ")
                && notAPlan.getMessage().contains("magic tag does not match"), notAPlan.getMessage());

            final TrtException badLine = assertThrows(TrtException.class,
                () -> deserialize(arena, FakePlan.text("input X FLOAT16 -1x4")));
            assertTrue(badLine.getMessage().contains("line 2: unknown data type 'FLOAT16'"), badLine.getMessage());

            final TrtException noProfile = assertThrows(TrtException.class,
                () -> deserialize(arena, FakePlan.text("input X FLOAT -1x4", "output Y FLOAT -1x4 = copy X")));
            assertTrue(noProfile.getMessage().contains("profile 0 does not describe dynamic input 'X'"),
                noProfile.getMessage());
        }
    }

    @Test
    void deliversLogMessagesFromNativeThreadsToListeners() throws Exception
    {
        final String marker = "native-thread-" + UUID.randomUUID();
        final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<TrtSeverity> severities = new ConcurrentLinkedQueue<>();
        final TrtLogListener listener = (severity, message) ->
        {
            if (message.contains(marker))
            {
                threads.add(Thread.currentThread());
                severities.add(severity);
            }
        };
        TrtLogger.addListener(listener);
        try (Arena arena = Arena.ofConfined();
             TrtCudaEngine ignored = deserialize(arena, planLogging("WARNING", marker)))
        {
            assertEquals(1, threads.size(), "one message from the plan's log_on_load");
            assertNotSame(Thread.currentThread(), threads.peek(), "it arrived on the fake's own pthread");
            assertEquals(TrtSeverity.WARNING, severities.peek());
        }
        finally
        {
            TrtLogger.removeListener(listener);
        }
    }

    @Test
    void aThrowingListenerNeverUnwindsIntoNativeCode()
    {
        final String marker = "throwing-" + UUID.randomUUID();
        final List<String> delivered = new ArrayList<>();
        final TrtLogListener thrower = (severity, message) ->
        {
            if (message.contains(marker))
            {
                throw new IllegalStateException("listener failure must stay in Java");
            }
        };
        final TrtLogListener collector = (severity, message) ->
        {
            if (message.contains(marker))
            {
                synchronized (delivered)
                {
                    delivered.add(message);
                }
            }
        };
        TrtLogger.addListener(thrower);
        TrtLogger.addListener(collector);
        final long failuresBefore = TrtLogger.listenerFailures();
        try (Arena arena = Arena.ofConfined();
             TrtCudaEngine ignored = deserialize(arena, planLogging("ERROR", marker)))
        {
            synchronized (delivered)
            {
                assertEquals(List.of(marker), delivered, "the next listener still gets the message");
            }
            assertTrue(TrtLogger.listenerFailures() > failuresBefore);
        }
        finally
        {
            TrtLogger.removeListener(thrower);
            TrtLogger.removeListener(collector);
        }
    }

    @Test
    void loggerIsSafeUnderConcurrentNativeLogging() throws Exception
    {
        final String marker = "concurrent-" + UUID.randomUUID();
        final ConcurrentLinkedQueue<String> received = new ConcurrentLinkedQueue<>();
        final TrtLogListener listener = (severity, message) ->
        {
            if (message.contains(marker))
            {
                received.add(message);
            }
        };
        TrtLogger.addListener(listener);
        final int threads = 4;
        final int plansPerThread = 25;
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try
        {
            final CountDownLatch start = new CountDownLatch(1);
            final List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int thread = t;
                futures.add(pool.submit(() ->
                {
                    start.await();
                    for (int i = 0; i < plansPerThread; i++)
                    {
                        try (Arena arena = Arena.ofConfined();
                             TrtCudaEngine ignored = deserialize(arena,
                                 planLogging("INFO", marker + " " + thread + "/" + i)))
                        {
                            // loading is the point: it logs from a fresh pthread
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (final Future<?> future : futures)
            {
                future.get(60, TimeUnit.SECONDS);
            }
            assertEquals(threads * plansPerThread, received.size());
            assertEquals(threads * plansPerThread, new TreeSet<>(received).size(), "every message exactly once");
        }
        finally
        {
            pool.shutdownNow();
            TrtLogger.removeListener(listener);
        }
    }

    private static String planLogging(final String severity, final String message)
    {
        return FakePlan.text("input X FLOAT 4", "output Y FLOAT 4 = copy X", "log_on_load " + severity + " " + message);
    }

    private static TrtCudaEngine deserialize(final Arena arena, final String plan)
    {
        final byte[] bytes = plan.getBytes(StandardCharsets.UTF_8);
        final MemorySegment blob = arena.allocate(bytes.length);
        blob.copyFrom(MemorySegment.ofArray(bytes));
        return runtime.deserialize(blob);
    }
}
