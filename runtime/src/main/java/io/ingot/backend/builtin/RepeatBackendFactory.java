package io.ingot.backend.builtin;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ResponseSender;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code backend: "repeat"}: Triton's {@code repeat} test backend (triton-inference-server/repeat_backend), the
 * decoupled model behind its {@code simple_grpc_custom_repeat} example. For each request with inputs {@code IN}
 * (INT32 {@code [n]}), {@code DELAY} (UINT32 {@code [n]}) and {@code WAIT} (UINT32 {@code [1]}) it sends {@code n}
 * responses: response {@code e} waits {@code DELAY[e]} milliseconds, then carries {@code OUT = [IN[e]]} (INT32) and
 * {@code IDX = [e]} (UINT32); then it marks the request complete with a flags-only final, as Triton's does (so an
 * empty {@code IN} gets no response at all, only the final). {@code WAIT} is how long Triton's execute holds the
 * request before releasing it; here the instance is held until {@code WAIT} milliseconds have passed since the
 * execution began, or until the last response, whichever is later.
 *
 * <p>The configuration is checked at load with the Triton backend's own rules and messages: {@code max_batch_size}
 * 0, the three inputs and two outputs in that order, with those names, shapes and datatypes.
 *
 * <p>Unlike Triton's, which answers from a thread per request while execute waits, the engine sends the responses
 * from the instance's thread during execute (Ingot's SPI is synchronous), so one instance streams one request at a
 * time: give the model more instances ({@code instance_group count}) to stream several at once. It stops early when
 * the request is cancelled or the model stops (the runtime then ends the request with Triton's error); it checks
 * that at least every {@value #CANCEL_CHECK_MS} ms while it waits. Stateless and thread-safe.
 */
public final class RepeatBackendFactory implements BackendFactory
{
    private static final int CANCEL_CHECK_MS = 5;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public String name()
    {
        return "repeat";
    }

    @Override
    public Backend load(final ModelContext context)
    {
        validate(context.config());
        return instance -> new RepeatEngine();
    }

    /** Triton's {@code ModelState::ValidateModelConfig}, message for message. */
    static void validate(final ModelConfig config)
    {
        require(config.getMaxBatchSize() == 0, "repeat backend only supports models with max_batch_size == 0");
        require(config.getInputCount() == 3, "expected 3 inputs, got " + config.getInputCount());
        require(config.getOutputCount() == 2, "expected 2 outputs, got " + config.getOutputCount());
        final ModelInput in = config.getInput(0);
        final ModelInput delay = config.getInput(1);
        final ModelInput wait = config.getInput(2);
        final ModelOutput out = config.getOutput(0);
        final ModelOutput idx = config.getOutput(1);
        require(in.getName().equals("IN"), "expected first input tensor name to be IN, got " + in.getName());
        require(delay.getName().equals("DELAY"), "expected second input tensor name to be DELAY, got "
            + delay.getName());
        require(wait.getName().equals("WAIT"), "expected third input tensor name to be WAIT, got " + wait.getName());
        require(out.getName().equals("OUT"), "expected first output tensor name to be OUT, got " + out.getName());
        require(idx.getName().equals("IDX"), "expected second output tensor name to be IDX, got " + idx.getName());
        require(in.getDimsCount() == 1, "expected IN shape to have one dimension, got " + shape(in.getDimsList()));
        require(in.getDimsList().equals(delay.getDimsList()), "expected IN and DELAY shape to match, got "
            + shape(in.getDimsList()) + " and " + shape(delay.getDimsList()));
        require(isSingleElement(wait.getDimsList()), "expected WAIT shape to be [1], got "
            + shape(wait.getDimsList()));
        require(isSingleElement(out.getDimsList()), "expected OUT shape to be [1], got " + shape(out.getDimsList()));
        require(isSingleElement(idx.getDimsList()), "expected IDX shape to be [1], got " + shape(idx.getDimsList()));
        requireType("IN", in.getDataType(), DataType.TYPE_INT32);
        requireType("DELAY", delay.getDataType(), DataType.TYPE_UINT32);
        requireType("WAIT", wait.getDataType(), DataType.TYPE_UINT32);
        requireType("OUT", out.getDataType(), DataType.TYPE_INT32);
        requireType("IDX", idx.getDataType(), DataType.TYPE_UINT32);
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    private static void requireType(final String tensor, final DataType actual, final DataType expected)
    {
        require(actual == expected, "expected " + tensor + " datatype to be " + expected.name().substring(5)
            + ", got " + actual.name());
    }

    private static boolean isSingleElement(final List<Long> dims)
    {
        return dims.size() == 1 && dims.get(0) == 1;
    }

    /** Triton's {@code ShapeToString}: {@code [1,-1]}. */
    private static String shape(final List<Long> dims)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int d = 0; d < dims.size(); d++)
        {
            text.append(d == 0 ? "" : ",").append(dims.get(d));
        }
        return text.append(']').toString();
    }

    /** Streams each request's responses from the instance's thread. Allocates nothing per response. */
    static final class RepeatEngine implements Engine
    {
        private static final long[] ONE = {1};

        @Override
        public void execute(final Batch batch)
        {
            for (int r = 0; r < batch.requestCount(); r++)
            {
                repeat(batch, batch.responseSender(r));
            }
        }

        private static void repeat(final Batch batch, final ResponseSender sender)
        {
            final long startNs = System.nanoTime();
            final BatchInput in = batch.input("IN");
            final BatchInput delay = batch.input("DELAY");
            final MemorySegment waitData = batch.input("WAIT").data();
            if (waitData.byteSize() != Integer.BYTES)
            {
                sender.refuse("unexpected size for WAIT input");
                return;
            }
            final long waitMs = Integer.toUnsignedLong(waitData.get(INT, 0));
            if (in.rank() != delay.rank() || in.dim(0) != delay.dim(0))
            {
                sender.refuse("expected IN and DELAY shape to match, got ["
                    + in.dim(0) + "] and [" + delay.dim(0) + "]");
                return;
            }
            final long count = in.data().byteSize() / Integer.BYTES;
            for (long e = 0; e < count; e++)
            {
                if (!sleep(Integer.toUnsignedLong(delay.data().getAtIndex(INT, e)), sender))
                {
                    return;  // cancelled or stopping: the runtime ends the request with that error
                }
                sender.allocateOutput("OUT", ONE).set(INT, 0, in.data().getAtIndex(INT, e));
                sender.allocateOutput("IDX", ONE).set(INT, 0, (int)e);
                sender.send(false);
            }
            // Triton's backend, too, sends its final as flags alone, after the last response.
            sender.sendFinal();
            final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            sleep(waitMs - waitedMs, sender);
        }

        /** @return false when the request was cancelled or the model stops while sleeping */
        private static boolean sleep(final long millis, final ResponseSender sender)
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis));
            while (true)
            {
                if (!sender.isComplete() && sender.isCancelled())
                {
                    return false;
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return true;
                }
                LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(CANCEL_CHECK_MS)));
            }
        }

        @Override
        public boolean acceptsHeapInputs()
        {
            return true;
        }
    }
}
