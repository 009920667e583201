package io.ingot.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Linux's {@code futex(2)} on a 32-bit word of a shared mapping, called through libc's {@code syscall(3)} with FFM:
 * a thread sleeps in the kernel until another process changes the word and wakes it. The operations are the
 * process-shared ones ({@code FUTEX_WAIT}, {@code FUTEX_WAKE}, without {@code FUTEX_PRIVATE_FLAG}), keyed by the
 * mapped file's page, so a waiter in one process is woken by a waker in another.
 *
 * <p>Where the call is not available (another OS or an architecture whose syscall number is not known here),
 * {@link #isAvailable()} is false, {@link #wake} does nothing and {@link #await} sleeps for a short, bounded time
 * instead; callers that re-check their condition in a loop stay correct, only slower to notice.
 */
public final class Futex
{
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long FALLBACK_SLEEP_NANOS = 50_000L;

    private static final long SYS_FUTEX;
    private static final MethodHandle WAIT;
    private static final MethodHandle WAKE;
    private static final String UNAVAILABLE_REASON;

    static
    {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        final long number = switch (arch)
        {
            case "amd64", "x86_64" -> 202L;
            case "aarch64", "arm64", "riscv64" -> 98L;
            default -> -1L;
        };
        MethodHandle waitHandle = null;
        MethodHandle wakeHandle = null;
        String reason = null;
        if (!os.startsWith("linux"))
        {
            reason = "futex(2) exists only on Linux; this is " + os;
        }
        else if (number < 0)
        {
            reason = "the futex syscall number of architecture " + arch + " is not known to Ingot";
        }
        else
        {
            final Linker linker = Linker.nativeLinker();
            final Optional<MemorySegment> syscall = linker.defaultLookup().find("syscall");
            if (syscall.isEmpty())
            {
                reason = "libc has no syscall(3) symbol";
            }
            else
            {
                // long syscall(long number, ...): every argument after the first is variadic and passed as a
                // 64-bit integer; the kernel reads the 32-bit ones from the low half.
                final FunctionDescriptor descriptor = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG);
                waitHandle = linker.downcallHandle(syscall.get(), descriptor, Linker.Option.firstVariadicArg(1));
                // A wake never blocks: it may skip the thread-state transition.
                wakeHandle = linker.downcallHandle(syscall.get(), descriptor, Linker.Option.firstVariadicArg(1),
                    Linker.Option.critical(false));
            }
        }
        SYS_FUTEX = number;
        WAIT = waitHandle;
        WAKE = wakeHandle;
        UNAVAILABLE_REASON = reason;
    }

    private final MemorySegment timeout = Arena.ofAuto().allocate(16, 8);

    /** @return whether waits sleep in the kernel and wakes reach them; otherwise waits are short timed sleeps */
    public static boolean isAvailable()
    {
        return WAIT != null;
    }

    /** @return why {@link #isAvailable()} is false, or {@code null} when it is true */
    public static String unavailableReason()
    {
        return UNAVAILABLE_REASON;
    }

    /**
     * Wakes up to {@code count} threads (in any process) sleeping on the word. Change the word before calling, so
     * that a thread about to sleep on its old value does not.
     *
     * @param memory the mapping
     * @param offset the word's offset, a multiple of 4
     * @param count  how many sleepers to wake at most
     * @return how many were woken (0 when none slept, or futexes are unavailable)
     */
    public static int wake(final MemorySegment memory, final long offset, final int count)
    {
        if (WAKE == null)
        {
            return 0;
        }
        try
        {
            final long woken = (long)WAKE.invokeExact(SYS_FUTEX, memory.address() + offset, (long)FUTEX_WAKE,
                (long)count, 0L);
            return (int)Math.max(0, woken);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("futex wake failed", ex);
        }
    }

    /**
     * Sleeps while the word holds {@code expected}: returns at once when it does not, otherwise when woken, after
     * {@code timeoutNanos}, or on a signal. Spurious returns are allowed: re-check the condition.
     * Not thread-safe (the timeout buffer is this object's): one waiter thread per instance.
     *
     * @param memory       the mapping
     * @param offset       the word's offset, a multiple of 4
     * @param expected     the value seen before deciding to sleep
     * @param timeoutNanos the longest sleep, &gt; 0
     */
    public void await(final MemorySegment memory, final long offset, final int expected, final long timeoutNanos)
    {
        if (WAIT == null)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(timeoutNanos, FALLBACK_SLEEP_NANOS));
            return;
        }
        timeout.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
        timeout.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
        try
        {
            // Returns 0 when woken, -1 with EAGAIN (word changed), ETIMEDOUT or EINTR: all mean "look again".
            final long ignored = (long)WAIT.invokeExact(SYS_FUTEX, memory.address() + offset, (long)FUTEX_WAIT,
                (long)expected, timeout.address());
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("futex wait failed", ex);
        }
    }
}
