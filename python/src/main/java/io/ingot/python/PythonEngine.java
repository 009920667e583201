package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.backend.Batch;
import io.ingot.backend.Engine;
import io.ingot.ipc.IpcRingCorruptException;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One instance of a Python model: a stub process that runs {@code model.py}, fed batch by batch through the
 * instance's shared memory. A stub that dies, stops its heartbeat, overruns the execute timeout or breaks the
 * protocol fails the batch it was running (with a message naming the model, the instance and what happened) and is
 * replaced at once by a new stub, started and initialized in the background; the next batch waits for it.
 *
 * <p>Used by the instance thread only, as the {@link Engine} contract says; the restart runs on a thread of its
 * own and hands its stub over through a future.
 */
final class PythonEngine implements Engine
{
    private static final Logger LOG = System.getLogger(PythonEngine.class.getName());
    private static final String MODE = "MODEL_INSTANCE_STUB";

    private final PythonSettings settings;
    private final Path modelFile;
    private final long version;
    private final String instance;
    private final byte[] initializeArgs;
    private final InferenceCore core;
    private final BatchEncoder encoder;
    private final ResultDecoder decoder;

    private StubProcess stub;
    private BlsBridge bls;
    private CompletableFuture<StubProcess> restart;

    private Batch batch;
    private boolean resultSeen;

    /**
     * Starts and initializes the instance's stub.
     *
     * @param settings       the model's settings
     * @param modelFile      its {@code model.py}
     * @param version        the version
     * @param instance       the instance's name
     * @param initializeArgs the JSON of {@code initialize(args)}
     * @param core           the core for BLS, or {@code null}
     * @param encoder        the model's batch encoder
     * @param decoder        the model's result decoder
     * @throws PythonStubException when the stub cannot start, or {@code initialize} fails (with its message)
     */
    PythonEngine(final PythonSettings settings, final Path modelFile, final long version, final String instance,
        final String initializeArgs, final InferenceCore core, final BatchEncoder encoder, final ResultDecoder decoder)
        throws PythonStubException
    {
        this.settings = settings;
        this.modelFile = modelFile;
        this.version = version;
        this.instance = instance;
        this.initializeArgs = initializeArgs.getBytes(StandardCharsets.UTF_8);
        this.core = core;
        this.encoder = encoder;
        this.decoder = decoder;
        use(launch());
    }

    /** Starts a stub and runs {@code initialize}; the stub is stopped again when that fails. */
    private StubProcess launch() throws PythonStubException
    {
        final StubProcess started = StubProcess.start(settings, MODE, modelFile, version, instance);
        try
        {
            final String failure = initialize(started, initializeArgs);
            if (failure != null)
            {
                throw new PythonStubException(started.label() + ": initialize() failed: " + failure);
            }
            return started;
        }
        catch (final PythonStubException | RuntimeException ex)
        {
            started.kill();
            started.release();
            throw ex;
        }
    }

    /**
     * Sends INIT and waits for its result: no deadline (a model may load for long), but the stub's heartbeat must
     * keep moving.
     *
     * @return null on success, else the stub's error text; for auto-complete the config JSON comes back through
     *     {@code result}
     */
    static String initialize(final StubProcess stub, final byte[] args) throws PythonStubException
    {
        return initialize(stub, args, null);
    }

    /**
     * @param result receives the result text on success (the auto-completed config), or {@code null}
     */
    static String initialize(final StubProcess stub, final byte[] args, final String[] result)
        throws PythonStubException
    {
        stub.send(StubProtocol.INIT, (buffer, offset) -> MemorySegment.copy(MemorySegment.ofArray(args), 0, buffer,
            offset, args.length), args.length);
        final String[] failure = new String[1];
        final boolean[] done = new boolean[1];
        stub.await((type, buffer, offset, length) ->
        {
            if (type != StubProtocol.INIT_RESULT)
            {
                throw new IpcRingCorruptException("expected INIT_RESULT, got record type " + type);
            }
            failure[0] = StubProcess.statusText(buffer, offset, length);
            if (failure[0] == null && result != null)
            {
                result[0] = StubProcess.text(buffer, offset, length);
            }
            done[0] = true;
        }, () -> done[0], 0, "running initialize()");
        return failure[0];
    }

    private void use(final StubProcess started)
    {
        stub = started;
        bls = new BlsBridge(core, started, settings.model());
        started.sideWork(bls);
    }

    @Override
    public boolean acceptsHeapInputs()
    {
        // Inputs are copied into shared memory whatever memory they come from.
        return true;
    }

    @Override
    public void execute(final Batch batch) throws Exception
    {
        if (stub != null && !stub.isAlive())
        {
            // It died between batches: this batch waits for its replacement instead of failing.
            LOG.log(Level.WARNING, stub.label() + ": the stub process (pid " + stub.pid() + ") "
                + stub.exitDescription() + " while idle" + stub.lastOutput() + "; starting a new stub");
            replace(stub);
        }
        final StubProcess current = current();
        final String what = "executing a batch of " + batch.requestCount() + " request"
            + (batch.requestCount() == 1 ? "" : "s");
        this.batch = batch;
        resultSeen = false;
        try
        {
            final int length = encoder.prepare(batch, current.region());
            current.send(StubProtocol.EXECUTE, encoder::write, length);
            final long timeout = settings.executeTimeout().toNanos();
            current.await(this::onRecord, () -> resultSeen, timeout == 0 ? 0 : System.nanoTime() + timeout,
                timeout == 0 ? what : what + " (" + PythonSettings.EXECUTE_TIMEOUT + " is "
                + settings.executeTimeout().toSeconds() + " s)");
        }
        catch (final PythonStubException ex)
        {
            replace(current);
            throw new PythonStubException(ex.getMessage() + "; a new stub is being started", ex);
        }
        catch (final RuntimeException ex)
        {
            if (!resultSeen && !(ex instanceof PythonExecuteException))
            {
                // The stub still waits inside this execute: it cannot be trusted with the next batch.
                replace(current);
            }
            throw ex;
        }
        finally
        {
            this.batch = null;
        }
    }

    private void onRecord(final int type, final MemorySegment buffer, final long offset, final int length)
    {
        switch (type)
        {
            case StubProtocol.EXECUTE_RESULT ->
            {
                resultSeen = true;
                decoder.decode(batch, encoder, stub.region(), buffer, offset, length);
            }
            case StubProtocol.BLS_REQUEST -> bls.onRequest(buffer, offset, length);
            case StubProtocol.BLS_RELEASE -> bls.onRelease(buffer, offset, length);
            default -> throw new IpcRingCorruptException("unexpected record type " + type + " during execute");
        }
    }

    /** @return the running stub, waiting for a restart in progress (whose failure fails this batch). */
    private StubProcess current() throws PythonStubException
    {
        if (stub != null)
        {
            return stub;
        }
        if (restart == null)
        {
            restart = startInBackground();
        }
        try
        {
            use(restart.get());
            return stub;
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            throw new PythonStubException("python model '" + settings.model() + "' instance '" + instance
                + "': restarting the stub failed: " + cause.getMessage() + "; the next batch tries again", cause);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new PythonStubException("python model '" + settings.model() + "' instance '" + instance
                + "': interrupted while waiting for the stub to restart", ex);
        }
        finally
        {
            restart = null;
        }
    }

    /** Retires a broken stub and starts its replacement in the background. */
    private void replace(final StubProcess broken)
    {
        broken.kill();
        bls.retire();
        stub = null;
        bls = null;
        restart = startInBackground();
    }

    private CompletableFuture<StubProcess> startInBackground()
    {
        final CompletableFuture<StubProcess> future = new CompletableFuture<>();
        final Thread starter = new Thread(() ->
        {
            try
            {
                future.complete(launch());
            }
            catch (final Throwable ex)
            {
                LOG.log(Level.WARNING, ex.getMessage());
                future.completeExceptionally(ex);
            }
        }, "ingot-python-restart-" + settings.model() + "-" + instance);
        starter.setDaemon(true);
        starter.start();
        return future;
    }

    @Override
    public void close()
    {
        StubProcess current = stub;
        if (current == null && restart != null)
        {
            try
            {
                use(restart.get());
                current = stub;
            }
            catch (final ExecutionException ex)
            {
                return;
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (current == null)
        {
            return;
        }
        final String problem = current.finalizeAndStop();
        if (problem != null)
        {
            LOG.log(Level.WARNING, current.label() + ": finalize() failed: " + problem);
        }
        bls.retire();
        stub = null;
    }
}
