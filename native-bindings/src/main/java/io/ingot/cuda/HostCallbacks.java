package io.ingot.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Completion of stream work signalled back to Java: {@link #launch(MemorySegment)} enqueues a host function with
 * {@code cudaLaunchHostFunc} and returns a future that completes when the stream reaches it.
 *
 * <p>There is exactly one upcall stub, allocated once in {@link Arena#global()} so that it outlives every call
 * CUDA may still make. CUDA passes it a {@code long} id as {@code userData} (never the address of a Java object,
 * which the GC may move); the stub looks the id up in a registry of pending futures and completes the match. The
 * stub catches every {@link Throwable}: an exception escaping an upcall terminates the JVM.
 *
 * <p><b>Threads.</b> The future completes on a CUDA-owned thread, in stream order. Stages attached with the
 * non-{@code Async} methods ({@code thenRun}, ...) run on that thread too, and CUDA forbids CUDA calls there
 * (they may deadlock or fail): attach work that calls CUDA with {@code thenRunAsync(..., executor)}, or wait with
 * {@link CompletableFuture#join()} on your own thread. Host functions of all streams share CUDA's callback thread,
 * so a slow stage delays every other stream's callbacks.
 *
 * <p><b>Errors.</b> CUDA does not call host functions after a context error; their futures would stay pending.
 * Whoever detects such an error (a failed synchronize or copy) should call {@link #failPending(Throwable)}.
 */
public final class HostCallbacks
{
    private static final Map<Long, CompletableFuture<Void>> PENDING = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_ID = new AtomicLong();
    private static final LongAdder STRAY = new LongAdder();

    private HostCallbacks()
    {
    }

    @SuppressWarnings("restricted") // the one upcall stub CUDA calls
    private static final class Stub
    {
        static final MemorySegment ADDRESS;

        static
        {
            try
            {
                ADDRESS = Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(HostCallbacks.class, "onHostFunction",
                        MethodType.methodType(void.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(CudaRuntime.C_POINTER),
                    Arena.global());
            }
            catch (final ReflectiveOperationException impossible)
            {
                throw new ExceptionInInitializerError(impossible);
            }
        }
    }

    /**
     * Enqueues a host function on {@code stream}; the returned future completes (with {@code null}) when every
     * piece of work enqueued on {@code stream} before it is done.
     *
     * @param stream the stream ({@link MemorySegment#NULL} for the legacy default stream)
     * @return a future completed on CUDA's callback thread (see the class comment)
     * @throws CudaException when CUDA refuses the launch; nothing stays registered then
     */
    public static CompletableFuture<Void> launch(final MemorySegment stream)
    {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final long id = register(future);
        try
        {
            CudaRuntime.cudaLaunchHostFunc(stream, Stub.ADDRESS, MemorySegment.ofAddress(id));
        }
        catch (final RuntimeException | Error failure)
        {
            PENDING.remove(id);
            throw failure;
        }
        return future;
    }

    /** @return how many launched host functions have not run yet */
    public static int pendingCount()
    {
        return PENDING.size();
    }

    /** @return how many times the stub was called with an id that had no pending future (should stay 0) */
    public static long strayCallbackCount()
    {
        return STRAY.sum();
    }

    /**
     * Completes every pending future exceptionally, for when a CUDA context error means their host functions will
     * never run. A host function that does run later finds nothing to complete and is counted as stray.
     *
     * @param cause the error to complete them with
     * @return how many futures were failed
     */
    public static int failPending(final Throwable cause)
    {
        final List<CompletableFuture<Void>> failed = new ArrayList<>();
        for (final Long id : List.copyOf(PENDING.keySet()))
        {
            final CompletableFuture<Void> future = PENDING.remove(id);
            if (future != null)
            {
                failed.add(future);
            }
        }
        for (final CompletableFuture<Void> future : failed)
        {
            future.completeExceptionally(cause);
        }
        return failed.size();
    }

    /**
     * Registers a future under a fresh id, before the launch, so that a callback that runs at once finds it.
     *
     * @param future the future to complete when the stub is called with the returned id
     * @return the id, never 0
     */
    static long register(final CompletableFuture<Void> future)
    {
        final long id = NEXT_ID.incrementAndGet();
        PENDING.put(id, future);
        return id;
    }

    /** @return the address of the one upcall stub ({@code void (*)(void *userData)}) */
    static MemorySegment upcallStub()
    {
        return Stub.ADDRESS;
    }

    /** The upcall target. Runs on a CUDA-owned thread; must never throw. */
    @SuppressWarnings("unused") // called through the upcall stub
    private static void onHostFunction(final MemorySegment userData)
    {
        try
        {
            final CompletableFuture<Void> future = PENDING.remove(userData.address());
            if (future == null)
            {
                STRAY.increment();
                return;
            }
            // complete() runs dependent non-async stages here; CompletableFuture captures what they throw in
            // their own futures, so nothing escapes from that.
            future.complete(null);
        }
        catch (final Throwable unexpected)
        {
            // Nothing may propagate into native code (the JVM would exit). Count it like a stray callback, the
            // only observable trace, rather than log from a CUDA thread.
            STRAY.increment();
        }
    }
}
