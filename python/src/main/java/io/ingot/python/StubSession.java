package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.SharedMemory;
import io.ingot.metrics.CustomMetrics;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Everything that talks with one stub besides {@code execute}'s own frames: the records the stub may send at any
 * time (a decoupled model's responses from its threads, BLS requests, custom metrics, model control, releases), and
 * the one thread allowed to read the stub's ring and write the ring to it at a time, the <em>role</em>.
 *
 * <p>The role is a lock. The instance thread holds it for a whole {@code execute} (and {@code initialize} and
 * {@code finalize}) and handles every record that arrives meanwhile itself, so a batch crosses no thread on its way;
 * between batches a pump thread of this session holds it and handles what the stub sends then (a decoupled model's
 * responses after {@code execute} returned, a metric its background thread sets). The pump never waits for the lock
 * while the instance thread holds it: it sleeps on a doorbell of its own, which the stub rings after every record but
 * those its main thread writes during a batch (so that a batch wakes no third thread), and which the instance thread
 * rings on leaving when records are waiting. When the stub dies or stops its heartbeat
 * while requests are open, the pump ends them at once with the reason; the next batch replaces the stub.
 *
 * <p>Thread-safe through the role: every method but {@link #enter}, {@link #leave}, {@link #startPump} and
 * {@link #retire} is called by the role holder.
 */
final class StubSession
{
    private static final Logger LOG = System.getLogger(StubSession.class.getName());
    private static final long PUMP_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final StubProcess stub;
    private final String model;
    private final ReentrantLock role = new ReentrantLock();
    private final InputBlocks inputs;
    private final ResponseOutputs outputs = new ResponseOutputs();
    private final OpenRequests requests;
    private final Replies replies;
    private final BlsBridge bls;
    private final StubCalls calls;
    private final StubProcess.RecordHandler dispatcher = this::dispatch;
    private Thread pump;
    private volatile boolean stopping;
    private boolean retired;

    /**
     * @param stub    the stub, greeted
     * @param model   its model
     * @param core    the core for BLS and model control, or {@code null}
     * @param control runs loads and unloads the model asks for
     */
    StubSession(final StubProcess stub, final String model, final InferenceCore core, final Executor control)
    {
        this.stub = stub;
        this.model = model;
        this.inputs = new InputBlocks(stub.region().inputs());
        this.requests = new OpenRequests(model, stub.region(), outputs);
        this.replies = new Replies(stub);
        this.bls = new BlsBridge(core, stub, model);
        final CustomMetrics metrics = core == null ? new CustomMetrics() : core.customMetrics();
        this.calls = new StubCalls(model, core, metrics, requests, replies, control);
        stub.sideWork(new StubProcess.SideWork()
        {
            @Override
            public int run()
            {
                return bls.run() + replies.run();
            }

            @Override
            public boolean pending()
            {
                return bls.pending() || replies.pending();
            }
        });
    }

    /** @return the stub */
    StubProcess stub()
    {
        return stub;
    }

    /** @return the input area's blocks */
    InputBlocks inputs()
    {
        return inputs;
    }

    /** @return the output copier */
    ResponseOutputs outputs()
    {
        return outputs;
    }

    /** @return the requests the stub may answer */
    OpenRequests requests()
    {
        return requests;
    }

    /** @return the calls the stub makes (for {@code initialize}'s model control) */
    StubCalls calls()
    {
        return calls;
    }

    /** @return the handler of every record but the one a caller awaits */
    StubProcess.RecordHandler dispatcher()
    {
        return dispatcher;
    }

    /** Takes the role (the instance thread, for a batch, an {@code initialize} or a {@code finalize}). */
    void enter()
    {
        role.lock();
    }

    /** Gives the role back, waking the pump when records wait for it. */
    void leave()
    {
        role.unlock();
        if (pump != null && !stopping && (stub.hasRecords() || replies.pending() || bls.pending()))
        {
            stub.wakePump();
        }
    }

    /** Starts the pump that serves the stub between batches (after {@code initialize} succeeded). */
    void startPump()
    {
        pump = new Thread(this::pumpLoop, "ingot-python-pump-" + stub.label().replace(' ', '-'));
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Stops the pump (the instance thread, before {@code finalize}, which it serves itself, or at {@link #retire}).
     * Idempotent.
     */
    void stopPump()
    {
        stopping = true;
        if (pump != null && pump.isAlive())
        {
            try
            {
                stub.wakeParent();
                pump.join(TimeUnit.SECONDS.toMillis(30));
            }
            catch (final IllegalStateException unmapped)
            {
                // The region is gone: so is the pump's reason to run.
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Handles a record that is not the one a caller awaits (role holder).
     *
     * @throws IpcRingCorruptException for a record the stub may not send
     */
    private void dispatch(final int type, final MemorySegment buffer, final long offset, final int length)
    {
        switch (type)
        {
            case StubProtocol.RESPONSE -> replies.send(requests.onResponse(buffer, offset, length));
            case StubProtocol.CALL -> calls.onCall(buffer, offset, length);
            case StubProtocol.BLS_REQUEST -> bls.onRequest(buffer, offset, length);
            case StubProtocol.RELEASE -> onRelease(buffer, offset, length);
            default -> throw new IpcRingCorruptException("unexpected record type " + type);
        }
    }

    private void onRelease(final MemorySegment buffer, final long offset, final int length)
    {
        ResponseOutputs.need(offset, 8, offset + length);
        final int blsCount = buffer.get(SharedMemory.INT, offset);
        final int batchCount = buffer.get(SharedMemory.INT, offset + 4);
        ResponseOutputs.need(offset + 8, 8L * blsCount + 8L * batchCount, offset + length);
        long cursor = offset + 8;
        for (int i = 0; i < blsCount; i++, cursor += 8)
        {
            bls.release(buffer.get(SharedMemory.LONG, cursor));
        }
        for (int i = 0; i < batchCount; i++, cursor += 8)
        {
            inputs.release(buffer.get(SharedMemory.LONG, cursor));
        }
    }

    private void pumpLoop()
    {
        final BooleanSupplier mayTakeRole = () -> !role.isLocked();
        while (!stopping)
        {
            int work = 0;
            if (!role.isLocked() && role.tryLock())
            {
                try
                {
                    if (stopping)
                    {
                        return;
                    }
                    work = stub.poll(dispatcher);
                    if (requests.keptOpen() > 0 || !stub.isAlive())
                    {
                        stub.checkHealth("serving " + requests.keptOpen() + " open request"
                            + (requests.keptOpen() == 1 ? "" : "s"), 0);
                    }
                }
                catch (final PythonStubException ex)
                {
                    // The stub died, stalled or broke the protocol between batches: its open requests end now; the
                    // next batch finds it dead, says so and starts a new one.
                    stub.kill();
                    if (requests.keptOpen() > 0)
                    {
                        LOG.log(Level.WARNING, ex.getMessage());
                        requests.failAll(ErrorCode.INTERNAL, ex.getMessage());
                    }
                    return;
                }
                finally
                {
                    role.unlock();
                }
            }
            stub.idlePump(work, requests.keptOpen() > 0, PUMP_SLEEP_NANOS, mayTakeRole);
        }
    }

    /**
     * The stub is gone or being replaced (the instance thread, not holding the role): stops the pump, ends every open
     * request with the reason, gives back the model's metrics, and retires the BLS bridge, which unmaps the region
     * once no BLS request is in flight.
     *
     * @param message why, for the open requests' error
     */
    void retire(final String message)
    {
        stopPump();
        role.lock();
        try
        {
            if (retired)
            {
                return;
            }
            retired = true;
            requests.failAll(ErrorCode.UNAVAILABLE, message);
            calls.releaseAll();
            bls.retire();
        }
        finally
        {
            role.unlock();
        }
    }
}
