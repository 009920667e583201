package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.backend.Batch;
import io.ingot.backend.Engine;
import io.ingot.backend.ResponseSender;
import io.ingot.ipc.IpcRingCorruptException;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * One instance of a Python model: a stub process that runs {@code model.py}, fed batch by batch through the
 * instance's shared memory, each request answered on its own through its response sender, as Triton's Python
 * backend answers it (outputs as the model gives them, an error for one request only). A decoupled model's requests
 * stay open after {@code execute} returns, until the model sends their final flag. A stub that dies, stops its
 * heartbeat, overruns the execute timeout or breaks the protocol fails the batch it was running (with a message
 * naming the model, the instance and what happened) and its open requests, and is replaced at once by a new stub,
 * started and initialized in the background; the next batch waits for it.
 *
 * <p>Used by the instance thread only, as the {@link Engine} contract says; the stub's session
 * ({@link StubSession}) serves the stub between batches on a thread of its own, and the restart runs on a thread of
 * its own and hands its session over through a future.
 */
final class PythonEngine implements Engine
{
    private static final Logger LOG = System.getLogger(PythonEngine.class.getName());
    private static final String MODE = "MODEL_INSTANCE_STUB";
    /** Loads and unloads the models ask for, off the threads that serve them. */
    private static final Executor MODEL_CONTROL = Executors.newCachedThreadPool(task ->
    {
        final Thread thread = new Thread(task, "ingot-python-model-control");
        thread.setDaemon(true);
        return thread;
    });

    private final PythonSettings settings;
    private final Path modelFile;
    private final long version;
    private final String instance;
    private final byte[] initializeArgs;
    private final InferenceCore core;
    private final BatchEncoder encoder;
    private final ResultDecoder decoder;
    private final boolean decoupled;

    private StubSession session;
    private CompletableFuture<StubSession> restart;

    private Batch batch;
    private boolean resultSeen;
    private String batchFailure;

    /**
     * Starts and initializes the instance's stub.
     *
     * @param settings       the model's settings
     * @param modelFile      its {@code model.py}
     * @param version        the version
     * @param instance       the instance's name
     * @param initializeArgs the JSON of {@code initialize(args)}
     * @param core           the core for BLS and model control, or {@code null}
     * @param encoder        the model's batch encoder
     * @param decoupled      whether the model is decoupled
     * @throws PythonStubException when the stub cannot start, or {@code initialize} fails (with its message)
     */
    PythonEngine(final PythonSettings settings, final Path modelFile, final long version, final String instance,
        final String initializeArgs, final InferenceCore core, final BatchEncoder encoder, final boolean decoupled)
        throws PythonStubException
    {
        this.settings = settings;
        this.modelFile = modelFile;
        this.version = version;
        this.instance = instance;
        this.initializeArgs = initializeArgs.getBytes(StandardCharsets.UTF_8);
        this.core = core;
        this.encoder = encoder;
        this.decoder = new ResultDecoder(settings.model());
        this.decoupled = decoupled;
        session = launch();
    }

    /** Starts a stub, runs {@code initialize} and starts its session's pump; the stub is stopped when that fails. */
    private StubSession launch() throws PythonStubException
    {
        final StubProcess started = StubProcess.start(settings, MODE, modelFile, version, instance);
        final StubSession created = new StubSession(started, settings.model(), core, MODEL_CONTROL);
        created.enter();
        try
        {
            created.calls().initializing(true);
            final String failure = initialize(started, initializeArgs, null, created.dispatcher());
            created.calls().initializing(false);
            if (failure != null)
            {
                throw new PythonStubException(started.label() + ": initialize() failed: " + failure);
            }
        }
        catch (final PythonStubException | RuntimeException ex)
        {
            created.leave();
            started.kill();
            created.retire(started.label() + ": initialize() failed");
            throw ex;
        }
        created.leave();
        created.startPump();
        return created;
    }

    /**
     * Sends INIT and waits for its result: no deadline (a model may load for long), but the stub's heartbeat must
     * keep moving. Other records are refused (an auto-complete stub sends none).
     *
     * @param result receives the result text on success (the auto-completed config), or {@code null}
     * @return null on success, else the stub's error text
     */
    static String initialize(final StubProcess stub, final byte[] args, final String[] result)
        throws PythonStubException
    {
        return initialize(stub, args, result, (type, buffer, offset, length) ->
        {
            throw new IpcRingCorruptException("expected INIT_RESULT, got record type " + type);
        });
    }

    /**
     * @param others receives the records {@code initialize} causes besides its result (custom metrics, model control)
     */
    private static String initialize(final StubProcess stub, final byte[] args, final String[] result,
        final StubProcess.RecordHandler others) throws PythonStubException
    {
        final long indirect = stub.send(StubProtocol.INIT, (buffer, offset) -> MemorySegment.copy(
            MemorySegment.ofArray(args), 0, buffer, offset, args.length), args.length);
        final String[] failure = new String[1];
        final boolean[] done = new boolean[1];
        stub.await((type, buffer, offset, length) ->
        {
            if (type != StubProtocol.INIT_RESULT)
            {
                others.onRecord(type, buffer, offset, length);
                return;
            }
            failure[0] = StubStatusText.failure(buffer, offset, length);
            if (failure[0] == null && result != null)
            {
                result[0] = StubStatusText.text(buffer, offset, length);
            }
            done[0] = true;
        }, () -> done[0], 0, "running initialize()");
        if (indirect >= 0)
        {
            stub.region().inputs().free(indirect, args.length);
        }
        return failure[0];
    }

    @Override
    public boolean acceptsHeapInputs()
    {
        // Inputs are copied into shared memory whatever memory they come from.
        return true;
    }

    @Override
    public boolean respondsPerRequest()
    {
        return true;
    }

    @Override
    public void execute(final Batch batch) throws Exception
    {
        if (session != null && !session.stub().isAlive())
        {
            // It died between batches: this batch waits for its replacement instead of failing.
            final StubProcess dead = session.stub();
            LOG.log(Level.WARNING, dead.label() + ": the stub process (pid " + dead.pid() + ") "
                + dead.exitDescription() + " while idle" + dead.lastOutput() + "; starting a new stub");
            replace(session, dead.label() + ": the stub process (pid " + dead.pid() + ") " + dead.exitDescription());
        }
        final StubSession current = current();
        final StubProcess stub = current.stub();
        final String what = "executing a batch of " + batch.requestCount() + " request"
            + (batch.requestCount() == 1 ? "" : "s");
        this.batch = batch;
        resultSeen = false;
        batchFailure = null;
        current.enter();
        try
        {
            final long handle = current.requests().beginBatch(batch, batch.requestCount());
            final int length = encoder.prepare(batch, stub.region(), current.inputs(), handle);
            final long indirect = stub.send(StubProtocol.EXECUTE, encoder::write, length);
            if (indirect >= 0)
            {
                current.inputs().attachBody(encoder.batchId(), indirect, length);
            }
            final long timeout = settings.executeTimeout().toNanos();
            stub.await(this::onRecord, () -> resultSeen, timeout == 0 ? 0 : System.nanoTime() + timeout,
                timeout == 0 ? what : what + " (" + PythonSettings.EXECUTE_TIMEOUT + " is "
                + settings.executeTimeout().toSeconds() + " s)");
            if (batchFailure != null)
            {
                failOpen(batch, batchFailure);
            }
            else if (decoupled)
            {
                current.requests().keepOpenAfterBatch();
            }
        }
        catch (final PythonStubException ex)
        {
            replace(current, ex.getMessage());
            throw new PythonStubException(ex.getMessage() + "; a new stub is being started", ex);
        }
        catch (final RuntimeException ex)
        {
            if (!resultSeen && !(ex instanceof PythonExecuteException))
            {
                // The stub still waits inside this execute: it cannot be trusted with the next batch.
                replace(current, current.stub().label() + ": " + ex.getMessage());
            }
            throw ex;
        }
        finally
        {
            current.requests().endBatch();
            current.leave();
            this.batch = null;
        }
    }

    private void onRecord(final int type, final MemorySegment buffer, final long offset, final int length)
    {
        if (type == StubProtocol.EXECUTE_RESULT)
        {
            resultSeen = true;
            batchFailure = decoder.decode(batch, encoder.requests(), decoupled, session.stub().region(),
                session.outputs(), session.inputs()::release, buffer, offset, length);
            return;
        }
        session.dispatcher().onRecord(type, buffer, offset, length);
    }

    /** Every request of the batch still open gets the message of the {@code execute} that failed as a whole. */
    private static void failOpen(final Batch batch, final String message)
    {
        for (int r = 0; r < batch.requestCount(); r++)
        {
            final ResponseSender sender = batch.responseSender(r);
            if (!sender.isComplete())
            {
                sender.sendError(ErrorCode.INTERNAL, message, true);
            }
        }
    }

    /** @return the running stub's session, waiting for a restart in progress (whose failure fails this batch). */
    private StubSession current() throws PythonStubException
    {
        if (session != null)
        {
            return session;
        }
        if (restart == null)
        {
            restart = startInBackground();
        }
        try
        {
            session = restart.get();
            return session;
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

    /** Retires a broken stub (its open requests end with the reason) and starts its replacement in the background. */
    private void replace(final StubSession broken, final String why)
    {
        broken.stub().kill();
        broken.retire(why);
        session = null;
        restart = startInBackground();
    }

    private CompletableFuture<StubSession> startInBackground()
    {
        final CompletableFuture<StubSession> future = new CompletableFuture<>();
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

    /**
     * False: a batch runs in the stub process, so running it on the caller's thread saves no hand-off (the stub is
     * signalled and awaited either way), blocks that thread for as long as {@code execute} takes in Python, and its
     * responses go through response senders, whose batches always run on the instance's thread.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return false;
    }

    @Override
    public void close()
    {
        StubSession current = session;
        if (current == null && restart != null)
        {
            try
            {
                current = restart.get();
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
        current.stopPump();
        current.enter();
        final String problem;
        try
        {
            problem = current.stub().finalizeAndStop(current.dispatcher());
        }
        finally
        {
            current.leave();
        }
        if (problem != null)
        {
            LOG.log(Level.WARNING, current.stub().label() + ": finalize() failed: " + problem);
        }
        current.retire(current.stub().label() + ": the model instance stopped before the model ended the request");
        session = null;
    }
}
