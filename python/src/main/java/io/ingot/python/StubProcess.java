package io.ingot.python;

import io.ingot.agent.BackoffIdleStrategy;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.SlabAllocator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One stub process and its shared memory: started, greeted, initialized, then driven by whichever thread holds its
 * session's role ({@link StubSession}: the instance thread during a batch, the session's pump between batches), which
 * writes records to the stub and reads the stub's records while checking that it lives, that its heartbeat moves,
 * and that it answers in time. Not thread-safe: one role holder at a time (the stub's exit, BLS completions and
 * replies computed elsewhere only ring the server's doorbell, {@link #wakeParent}).
 */
final class StubProcess
{
    /** Receives one record from the stub; its body is valid only during the call. */
    @FunctionalInterface
    interface RecordHandler
    {
        /**
         * @param type   the record type, {@link StubProtocol#INDIRECT} cleared
         * @param buffer the memory holding the body (the ring, or the region for an indirect record)
         * @param offset the body's offset in {@code buffer}
         * @param length bytes of the body
         */
        void onRecord(int type, MemorySegment buffer, long offset, int length);
    }

    /** Work the waiting thread does besides reading the stub's ring (delivering BLS completions). */
    interface SideWork
    {
        /** @return units of work done now. */
        int run();

        /** @return whether work is waiting (checked before sleeping; must not block). */
        boolean pending();
    }

    private static final SideWork NO_SIDE_WORK = new SideWork()
    {
        @Override
        public int run()
        {
            return 0;
        }

        @Override
        public boolean pending()
        {
            return false;
        }
    };

    private static final int TAIL_LINES = 20;
    private static final int TAIL_LINE_CHARS = 400;
    private static final long MAX_SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** Starting Python and importing numpy on a loaded machine can take seconds; no stub gets less than this. */
    private static final long MIN_START_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final String label;
    private final String instance;
    private final PythonSettings settings;
    private final StubRegion region;
    private final Process process;
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private final BackoffIdleStrategy idler;
    // The pump thread's own (idlePump), made on its first call.
    private BackoffIdleStrategy pumpIdler;
    private final IpcRingWriter toStub;
    private final IpcRingReader toParent;
    private SideWork sideWork = NO_SIDE_WORK;
    private long lastHeartbeat = -1;
    private long lastBeatNanos;
    private boolean greeted;
    private volatile boolean closed;

    private StubProcess(final String label, final String instance, final PythonSettings settings,
        final StubRegion region, final Process process)
    {
        this.label = label;
        this.instance = instance;
        this.settings = settings;
        this.region = region;
        this.process = process;
        this.toStub = region.toStub();
        this.toParent = region.toParent();
        // A stub answers within microseconds of a batch: spin briefly, yield a little longer, then sleep.
        this.idler = new BackoffIdleStrategy(region.parentBell(),
            () -> toParent.hasRecord() || sideWork.pending() || !process.isAlive(), TimeUnit.MICROSECONDS.toNanos(2),
            TimeUnit.MICROSECONDS.toNanos(20));
        this.lastBeatNanos = System.nanoTime();
        final Thread pump = new Thread(this::pumpStandardError, "ingot-python-stderr-" + process.pid());
        pump.setDaemon(true);
        pump.start();
        process.onExit().thenRun(() ->
        {
            if (!closed)
            {
                region.parentBell().ringAlways();
                region.pumpBell().ringAlways();
            }
        });
    }

    /**
     * Starts a stub and waits for its greeting.
     *
     * @param settings  the model's settings
     * @param mode      {@code MODEL_INSTANCE_STUB} or {@code AUTOCOMPLETE_STUB}
     * @param modelFile the model's {@code model.py}
     * @param version   the model version
     * @param instance  the instance's name ({@code <model>_auto_complete} for auto-complete)
     * @return the running stub, its region unlinked
     * @throws PythonStubException when it cannot be started or does not greet within the stub timeout
     */
    static StubProcess start(final PythonSettings settings, final String mode, final Path modelFile,
        final long version, final String instance) throws PythonStubException
    {
        final String label = "python model '" + settings.model() + "' instance '" + instance + "'";
        final Path stub = StubSources.stub();
        final StubRegion region = StubRegion.create(settings.model(), settings.areaBytes());
        final Process process;
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(settings.python().toString(), "-u", "-B",
                stub.toString(), region.path().toString(), mode, modelFile.toAbsolutePath().toString(),
                settings.model(), Long.toString(version), instance);
            builder.environment().putAll(settings.environment());
            builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            builder.redirectInput(ProcessBuilder.Redirect.PIPE);
            process = builder.start();
            process.getOutputStream().close();
        }
        catch (final IOException ex)
        {
            region.close();
            throw new PythonStubException(label + ": cannot start the stub with " + settings.python() + ": "
                + ex.getMessage(), ex);
        }
        final StubProcess started = new StubProcess(label, instance, settings, region, process);
        try
        {
            final boolean[] greeted = new boolean[1];
            started.await((type, buffer, offset, length) ->
            {
                if (type != StubProtocol.HELLO)
                {
                    throw new IpcRingCorruptException("the first record must be HELLO, got type " + type);
                }
                greeted[0] = true;
            }, () -> greeted[0], System.nanoTime() + Math.max(settings.stubTimeout().toNanos(), MIN_START_NANOS),
                "starting");
            region.unlink();
            started.greeted = true;
            return started;
        }
        catch (final PythonStubException | RuntimeException ex)
        {
            started.kill();
            started.release();
            throw ex;
        }
    }

    /** @return {@code python model 'm' instance 'i'}, the prefix of this stub's messages. */
    String label()
    {
        return label;
    }

    /** @return the region. */
    StubRegion region()
    {
        return region;
    }

    /** @return the process id. */
    long pid()
    {
        return process.pid();
    }

    /** @return whether the process runs. */
    boolean isAlive()
    {
        return process.isAlive();
    }

    /** @param work what the waiting thread does besides reading the ring, from now on */
    void sideWork(final SideWork work)
    {
        this.sideWork = work == null ? NO_SIDE_WORK : work;
    }

    /**
     * Writes one record and rings the stub. Bodies longer than a ring record go into {@code overflow} memory of the
     * input area and travel {@link StubProtocol#INDIRECT}.
     *
     * @param type   record type
     * @param body   the body (a writer fills it at the given offset)
     * @param length bytes of the body
     * @return the input-area offset of an indirect body, which the caller frees when the stub is done with it, or -1
     * @throws PythonStubException when the ring stays full (the stub does not read) past the stub timeout, or the
     *     body does not fit the input area
     */
    long send(final int type, final BodyWriter body, final int length) throws PythonStubException
    {
        long indirect = -1;
        if (length > toStub.maxMessageLength())
        {
            final long offset = region.inputs().allocate(length);
            if (offset == SlabAllocator.FAILED)
            {
                throw new PythonStubException(label + ": a frame of " + length + " bytes does not fit the input "
                    + "area's " + region.inputs().freeBytes() + " free bytes; raise the parameter "
                    + PythonSettings.SHM_BYTES);
            }
            body.write(region.memory(), offset);
            final int index = claim(type | StubProtocol.INDIRECT, StubProtocol.INDIRECT_LENGTH);
            toStub.buffer().set(SharedMemory.LONG, index, offset);
            toStub.buffer().set(SharedMemory.LONG, index + 8, length);
            toStub.commit(index);
            indirect = offset;
        }
        else
        {
            final int index = claim(type, length);
            body.write(toStub.buffer(), index);
            toStub.commit(index);
        }
        region.stubBell().ringAlways();
        return indirect;
    }

    /**
     * Tries to claim room for a record without waiting.
     *
     * @param type   record type
     * @param length bytes of the body, at most a ring record
     * @return the body's index in {@link #ringToStub()}'s buffer, or {@link IpcRingWriter#INSUFFICIENT_CAPACITY}
     */
    int tryClaim(final int type, final int length)
    {
        return toStub.tryClaim(type, length);
    }

    /** @return the ring to the stub (for {@link #tryClaim} users, who commit and then {@link #ringStub()}). */
    IpcRingWriter ringToStub()
    {
        return toStub;
    }

    /** Rings the stub after a record was committed. */
    void ringStub()
    {
        region.stubBell().ringAlways();
    }

    /**
     * Wakes the role holder, whichever it is: the instance thread sleeping on the server's doorbell, or the session's
     * pump on its own (any thread). Always system calls: the waiting flags are not kept for these waiters.
     *
     * @throws IllegalStateException when the region is unmapped already
     */
    void wakeParent()
    {
        region.parentBell().ringAlways();
        region.pumpBell().ringAlways();
    }

    /**
     * Wakes the session's pump only (the instance thread, leaving the role with records waiting).
     *
     * @throws IllegalStateException when the region is unmapped already
     */
    void wakePump()
    {
        region.pumpBell().ringAlways();
    }

    /** @return whether a record from the stub waits in its ring */
    boolean hasRecords()
    {
        return toParent.hasRecord();
    }

    /**
     * Reads what the stub has sent, without waiting, and does the side work (the role holder between batches).
     *
     * @param handler receives every record
     * @return units of work done
     * @throws PythonStubException when the stub broke the protocol (it was killed)
     */
    int poll(final RecordHandler handler) throws PythonStubException
    {
        try
        {
            return toParent.read((type, buffer, offset, length) -> dispatch(handler, type, buffer, offset, length),
                16) + sideWork.run();
        }
        catch (final IpcRingCorruptException ex)
        {
            kill();
            throw new PythonStubException(label + ": the stub broke the protocol between batches: " + ex.getMessage()
                + "; it was killed", ex);
        }
    }

    /**
     * Waits on the pump's doorbell until the stub writes outside a batch, side work arrives, the process exits, or
     * the time passes (the session's pump between batches). While {@code streaming} (a decoupled model's requests
     * are open), it first yields for about 20 µs ({@link BackoffIdleStrategy#blocking}): a model that streams sends
     * its next response within microseconds, and each one that finds the pump asleep costs a wake-up on both sides.
     * Otherwise it sleeps at once. The pump's thread only.
     *
     * @param work      units of work the caller's last pass did (a pass with work restarts the yielding)
     * @param streaming whether requests the model answers later are open
     * @param nanos     the longest sleep
     * @param mayRead   whether the caller could take the role now (while it cannot, waiting records do not wake it)
     */
    void idlePump(final int work, final boolean streaming, final long nanos, final BooleanSupplier mayRead)
    {
        if (closed)
        {
            return;
        }
        if (pumpIdler == null)
        {
            pumpIdler = BackoffIdleStrategy.blocking(region.pumpBell(),
                () -> mayRead.getAsBoolean() && (toParent.hasRecord() || sideWork.pending()) || !process.isAlive());
        }
        try
        {
            if (streaming)
            {
                pumpIdler.idle(work, nanos);
                return;
            }
            pumpIdler.reset();
            if (work > 0)
            {
                return;
            }
            final int seen = region.pumpBell().arm();
            final boolean pending = mayRead.getAsBoolean() && (toParent.hasRecord() || sideWork.pending());
            if (!pending && process.isAlive())
            {
                region.pumpBell().sleep(seen, nanos);
            }
            region.pumpBell().disarm();
        }
        catch (final IllegalStateException unmapped)
        {
            // The region was closed meanwhile: the session is retiring.
        }
    }

    private int claim(final int type, final int length) throws PythonStubException
    {
        final long deadline = System.nanoTime() + settings.stubTimeout().toNanos();
        while (true)
        {
            final int index = toStub.tryClaim(type, length);
            if (index != IpcRingWriter.INSUFFICIENT_CAPACITY)
            {
                return index;
            }
            checkHealth("waiting for room in the ring to the stub", deadline);
            Thread.onSpinWait();
        }
    }

    /**
     * Reads the stub's records until {@code done} says so, doing the side work in between and sleeping on the
     * doorbell when there is nothing to do.
     *
     * @param handler  receives every record
     * @param done     checked after each pass
     * @param deadline {@link System#nanoTime()} by which {@code done} must hold, or 0 for none
     * @param what     what the stub is doing, for messages ("executing a batch of 4 requests")
     * @throws PythonStubException when the stub dies, its heartbeat stalls, the deadline passes, or it breaks the
     *     protocol; the stub is killed (if alive) before this is thrown
     */
    void await(final RecordHandler handler, final BooleanSupplier done, final long deadline, final String what)
        throws PythonStubException
    {
        idler.reset();
        final IpcRingReader.Handler reader = (type, buffer, offset, length) -> dispatch(handler, type, buffer, offset,
            length);
        while (true)
        {
            int work;
            try
            {
                work = toParent.read(reader, 16);
            }
            catch (final IpcRingCorruptException ex)
            {
                kill();
                throw new PythonStubException(label + ": the stub broke the protocol while " + what + ": "
                    + ex.getMessage() + "; it was killed", ex);
            }
            work += sideWork.run();
            if (done.getAsBoolean())
            {
                return;
            }
            checkHealth(what, deadline);
            idler.idle(work, MAX_SLEEP_NANOS);
        }
    }

    private void dispatch(final RecordHandler handler, final int type, final MemorySegment buffer, final int offset,
        final int length)
    {
        if ((type & StubProtocol.INDIRECT) == 0)
        {
            handler.onRecord(type, buffer, offset, length);
            return;
        }
        if (length != StubProtocol.INDIRECT_LENGTH)
        {
            throw new IpcRingCorruptException("indirect record of " + length + " bytes; expected "
                + StubProtocol.INDIRECT_LENGTH);
        }
        final long bodyOffset = buffer.get(SharedMemory.LONG, offset);
        final long bodyLength = buffer.get(SharedMemory.LONG, offset + 8);
        if (bodyLength > Integer.MAX_VALUE || !region.inDataAreas(bodyOffset, bodyLength))
        {
            throw new IpcRingCorruptException("indirect record body at offset " + bodyOffset + ", length "
                + bodyLength + " lies outside the data areas");
        }
        handler.onRecord(type & ~StubProtocol.INDIRECT, region.memory(), bodyOffset, (int)bodyLength);
    }

    /**
     * @param what     what the stub is doing
     * @param deadline {@link System#nanoTime()} deadline, or 0
     * @throws PythonStubException when the stub died, its heartbeat stalled past the stub timeout, or the deadline
     *     passed (the stub is killed then)
     */
    void checkHealth(final String what, final long deadline) throws PythonStubException
    {
        if (!process.isAlive())
        {
            throw new PythonStubException(label + ": the stub process (pid " + process.pid() + ") "
                + exitDescription() + " while " + what + lastOutput());
        }
        final long now = System.nanoTime();
        final long heartbeat = region.heartbeat();
        if (heartbeat != lastHeartbeat || !greeted)
        {
            // Before its greeting the stub has no heartbeat yet: the start deadline bounds it instead.
            lastHeartbeat = heartbeat;
            lastBeatNanos = now;
        }
        else if (now - lastBeatNanos > settings.stubTimeout().toNanos())
        {
            kill();
            throw new PythonStubException(label + ": Stub process '" + instance + "' is not healthy: its heartbeat did "
                + "not move for " + settings.stubTimeout().toSeconds() + " s (" + PythonSettings.STUB_TIMEOUT
                + ") while " + what + "; the stub (pid " + process.pid() + ") was killed" + lastOutput());
        }
        if (deadline != 0 && now - deadline > 0)
        {
            kill();
            throw new PythonStubException(label + ": the stub did not finish " + what + " in time; the stub (pid "
                + process.pid() + ") was killed" + lastOutput());
        }
    }

    /**
     * Sends FINALIZE, waits for the result within the stub timeout (handing the other records that arrive meanwhile
     * to {@code others}), then for the process to exit; kills it if it does not. Never throws: a stub that fails to
     * finalize is only logged by the caller.
     *
     * @param others receives the records that are not FINALIZE_RESULT
     * @return null when {@code finalize()} succeeded, else why not
     */
    String finalizeAndStop(final RecordHandler others)
    {
        String problem = null;
        try
        {
            send(StubProtocol.FINALIZE, (buffer, offset) ->
            {
            }, 0);
            final String[] result = new String[1];
            final boolean[] done = new boolean[1];
            await((type, buffer, offset, length) ->
            {
                if (type == StubProtocol.FINALIZE_RESULT)
                {
                    result[0] = statusText(buffer, offset, length);
                    done[0] = true;
                }
                else
                {
                    // A decoupled model's threads still answer while finalize() waits for them.
                    others.onRecord(type, buffer, offset, length);
                }
            }, () -> done[0], System.nanoTime() + settings.stubTimeout().toNanos(), "finalizing");
            problem = result[0];
            if (!process.waitFor(settings.stubTimeout().toMillis(), TimeUnit.MILLISECONDS))
            {
                problem = "the stub did not exit after finalize()";
            }
        }
        catch (final PythonStubException ex)
        {
            problem = ex.getMessage();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            problem = "interrupted while finalizing";
        }
        kill();
        return problem;
    }

    /**
     * Reads an {@code int32 status, uint32 length, text} body.
     *
     * @return null for status 0, else the text
     */
    static String statusText(final MemorySegment buffer, final long offset, final int length)
    {
        final int status = buffer.get(SharedMemory.INT, offset);
        final int textLength = buffer.get(SharedMemory.INT, offset + 4);
        if (textLength < 0 || 8L + textLength > length)
        {
            throw new IpcRingCorruptException("status record with a text of " + textLength + " bytes in a body of "
                + length);
        }
        final String text = FrameText.get(buffer, offset + 8, textLength);
        return status == 0 ? null : text;
    }

    /**
     * Reads the text of a successful {@code int32 status, uint32 length, text} body.
     *
     * @return the text
     */
    static String text(final MemorySegment buffer, final long offset, final int length)
    {
        final int textLength = buffer.get(SharedMemory.INT, offset + 4);
        if (textLength < 0 || 8L + textLength > length)
        {
            throw new IpcRingCorruptException("record with a text of " + textLength + " bytes in a body of "
                + length);
        }
        return FrameText.get(buffer, offset + 8, textLength);
    }

    /** Kills the process (SIGKILL) and waits briefly for it. */
    void kill()
    {
        process.destroyForcibly();
        try
        {
            process.waitFor(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Unmaps the region; only once nothing (no BLS request in flight) uses its memory. */
    void release()
    {
        closed = true;
        region.close();
    }

    /** @return "exited with status 1" or "was killed by signal 9 (SIGKILL)". */
    String exitDescription()
    {
        if (process.isAlive())
        {
            return "is running";
        }
        final int status = process.exitValue();
        if (status > 128 && status < 128 + 65)
        {
            final int signal = status - 128;
            return "was killed by signal " + signal + switch (signal)
            {
                case 9 -> " (SIGKILL)";
                case 11 -> " (SIGSEGV)";
                case 6 -> " (SIGABRT)";
                case 15 -> " (SIGTERM)";
                default -> "";
            };
        }
        return "exited with status " + status;
    }

    /** @return the last lines the stub wrote to standard error, as a suffix for messages ("" when none). */
    String lastOutput()
    {
        final List<String> lines;
        synchronized (tail)
        {
            lines = new ArrayList<>(tail);
        }
        return lines.isEmpty() ? "" : "; its last output:\n" + String.join("\n", lines);
    }

    private void pumpStandardError()
    {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                System.err.println("[" + label + "] " + line);
                synchronized (tail)
                {
                    if (tail.size() == TAIL_LINES)
                    {
                        tail.removeFirst();
                    }
                    tail.addLast(line.length() > TAIL_LINE_CHARS ? line.substring(0, TAIL_LINE_CHARS) + "..." : line);
                }
            }
        }
        catch (final IOException ignored)
        {
            // The stub is gone.
        }
    }

    /** Writes a record body at an offset of the given memory. */
    @FunctionalInterface
    interface BodyWriter
    {
        /**
         * @param buffer the memory (the ring, or the region for an indirect body)
         * @param offset where the body starts
         */
        void write(MemorySegment buffer, long offset);
    }
}
