package io.ingot.cuda;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The host-callback registry and its one upcall stub, driven the way CUDA drives it: a native call of the stub's
 * address with the id as {@code userData}. (A real {@code cudaLaunchHostFunc} is exercised by the GPU tests.)
 */
class HostCallbacksTest
{
    @SuppressWarnings("restricted") // calls the upcall stub the way CUDA does
    private static final MethodHandle CALL_STUB = Linker.nativeLinker().downcallHandle(HostCallbacks.upcallStub(),
        FunctionDescriptor.ofVoid(CudaRuntime.C_POINTER));

    private static void callStub(final long id) throws Throwable
    {
        CALL_STUB.invokeExact(MemorySegment.ofAddress(id));
    }

    @Test
    void theStubCompletesTheFutureRegisteredUnderTheId() throws Throwable
    {
        final CompletableFuture<Void> first = new CompletableFuture<>();
        final CompletableFuture<Void> second = new CompletableFuture<>();
        final long firstId = HostCallbacks.register(first);
        final long secondId = HostCallbacks.register(second);

        callStub(secondId);

        assertTrue(second.isDone() && !second.isCompletedExceptionally());
        assertFalse(first.isDone(), "only the matching future completes");
        callStub(firstId);
        assertTrue(first.isDone());
    }

    @Test
    void theStubCompletesFuturesFromAForeignThread() throws Throwable
    {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final long id = HostCallbacks.register(future);
        final CountDownLatch ran = new CountDownLatch(1);
        final Thread caller = Thread.ofPlatform().start(() ->
        {
            try
            {
                callStub(id);
            }
            catch (final Throwable t)
            {
                throw new AssertionError(t);
            }
            ran.countDown();
        });
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        caller.join();
        future.get(30, TimeUnit.SECONDS);
    }

    @Test
    void anUnknownIdIsCountedAndIgnored() throws Throwable
    {
        final long before = HostCallbacks.strayCallbackCount();
        callStub(Long.MAX_VALUE);
        assertEquals(before + 1, HostCallbacks.strayCallbackCount());
    }

    @Test
    void aThrowingDependentStageNeverEscapesIntoNativeCode() throws Throwable
    {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final CompletableFuture<Void> dependent = future.thenRun(() ->
        {
            throw new IllegalStateException("thrown on the callback thread");
        });
        callStub(HostCallbacks.register(future));

        assertTrue(future.isDone());
        final CompletionException thrown = assertThrows(CompletionException.class, dependent::join);
        assertEquals("thrown on the callback thread", thrown.getCause().getMessage());
    }

    @Test
    void failPendingFailsEveryRegisteredFuture() throws Throwable
    {
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final long id = HostCallbacks.register(future);
        final IllegalStateException cause = new IllegalStateException("context lost");

        assertTrue(HostCallbacks.failPending(cause) >= 1);
        final CompletionException thrown = assertThrows(CompletionException.class, future::join);
        assertSame(cause, thrown.getCause());

        final long before = HostCallbacks.strayCallbackCount();
        callStub(id);
        assertEquals(before + 1, HostCallbacks.strayCallbackCount(), "a late callback finds nothing to complete");
    }

    @Test
    void aRefusedLaunchLeavesNothingPending()
    {
        assumeTrue(CudaRuntime.cudaDriverGetVersion() == 0, "a CUDA driver is installed here; the refused launch "
            + "is exercised only without one");
        final int before = HostCallbacks.pendingCount();
        final CudaException refused = assertThrows(CudaException.class, () -> HostCallbacks.launch(MemorySegment.NULL));
        assertEquals("cudaLaunchHostFunc", refused.call());
        assertEquals(CudaRuntime.cudaErrorInsufficientDriver, refused.code());
        assertEquals(before, HostCallbacks.pendingCount());
    }
}
