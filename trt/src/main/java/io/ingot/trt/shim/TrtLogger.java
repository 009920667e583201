package io.ingot.trt.shim;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The one TensorRT logger of this process: a native {@code ILogger} (made by the shim) whose {@code log} calls an
 * FFM upcall into {@link #onLog}. TensorRT keeps the first logger it is given for the whole process, so Ingot
 * makes exactly one, lazily, and never destroys it.
 *
 * <p>The upcall stub lives in {@link Arena#global()}: TensorRT may log from its own threads at any time until the
 * process ends. The upcall never throws (an exception escaping an upcall terminates the JVM): every failure,
 * including one of a listener, is caught and counted.
 *
 * <p>Messages at or above {@link #minSeverity()} (system property {@value #SEVERITY_PROPERTY}, default
 * {@code WARNING}; fixed when the logger is first used) are written to the {@link System.Logger} named
 * {@code io.ingot.trt} and given to every registered {@link TrtLogListener}.
 */
public final class TrtLogger
{
    /** System property choosing the most verbose severity forwarded: INTERNAL_ERROR, ERROR, WARNING, INFO, VERBOSE. */
    public static final String SEVERITY_PROPERTY = "ingot.trt.log.severity";

    private static final System.Logger LOG = System.getLogger("io.ingot.trt");
    private static final CopyOnWriteArrayList<TrtLogListener> LISTENERS = new CopyOnWriteArrayList<>();
    private static final AtomicLong LISTENER_FAILURES = new AtomicLong();
    private static final AtomicLong MESSAGES = new AtomicLong();

    private TrtLogger()
    {
    }

    /** @return the native logger handle, created on first use */
    public static MemorySegment nativeLogger()
    {
        return Holder.LOGGER;
    }

    /** @return the most verbose severity forwarded from native code */
    public static TrtSeverity minSeverity()
    {
        return Holder.MIN_SEVERITY;
    }

    /**
     * @param listener receives every forwarded message from now on
     */
    public static void addListener(final TrtLogListener listener)
    {
        LISTENERS.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /**
     * @param listener a listener added before
     * @return true when it was registered
     */
    public static boolean removeListener(final TrtLogListener listener)
    {
        return LISTENERS.remove(listener);
    }

    /** @return how many messages the upcall received */
    public static long messages()
    {
        return MESSAGES.get();
    }

    /** @return how many times a listener (or reading a message) threw inside the upcall */
    public static long listenerFailures()
    {
        return LISTENER_FAILURES.get();
    }

    /**
     * The upcall target: {@code void(int32_t severity, const char* message)}. Never throws.
     *
     * @param severity TensorRT's severity value
     * @param message  the NUL-terminated message, valid only during this call
     */
    static void onLog(final int severity, final MemorySegment message)
    {
        try
        {
            MESSAGES.incrementAndGet();
            final TrtSeverity level = TrtSeverity.of(severity);
            final String text = message.equals(MemorySegment.NULL) ? "" : TrtShim.string(message);
            if (LOG.isLoggable(level.level()))
            {
                LOG.log(level.level(), "TensorRT: {0}", text);
            }
            for (final TrtLogListener listener : LISTENERS)
            {
                try
                {
                    listener.log(level, text);
                }
                catch (final Throwable failure)
                {
                    LISTENER_FAILURES.incrementAndGet();
                }
            }
        }
        catch (final Throwable failure)
        {
            // Even a failing counter or logger must not unwind into native code.
            try
            {
                LISTENER_FAILURES.incrementAndGet();
            }
            catch (final Throwable ignored)
            {
                // nothing more can be done safely here
            }
        }
    }

    static TrtSeverity configuredSeverity(final String value)
    {
        if (value == null || value.isBlank())
        {
            return TrtSeverity.WARNING;
        }
        try
        {
            return TrtSeverity.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
        }
        catch (final IllegalArgumentException unknown)
        {
            throw new IllegalArgumentException("system property " + SEVERITY_PROPERTY + " is '" + value
                + "'; expected one of INTERNAL_ERROR, ERROR, WARNING, INFO, VERBOSE", unknown);
        }
    }

    /** Created on first use, so that merely loading the class needs no shim. */
    private static final class Holder
    {
        private static final TrtSeverity MIN_SEVERITY = configuredSeverity(System.getProperty(SEVERITY_PROPERTY));
        private static final MemorySegment LOGGER = create();

        @SuppressWarnings("restricted") // the one logger upcall stub TensorRT calls
        private static MemorySegment create()
        {
            TrtShim.requireAvailable();
            final MemorySegment stub;
            try
            {
                stub = Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(TrtLogger.class, "onLog",
                        MethodType.methodType(void.class, int.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(JAVA_INT, ADDRESS), Arena.global());
            }
            catch (final ReflectiveOperationException impossible)
            {
                throw new IllegalStateException("TrtLogger.onLog is missing", impossible);
            }
            final MemorySegment logger = TrtShim.loggerCreate(stub, MIN_SEVERITY.ordinal());
            if (logger.equals(MemorySegment.NULL))
            {
                throw new TrtException("ingot_trt_logger_create failed: " + TrtShim.lastError());
            }
            return logger;
        }
    }
}
