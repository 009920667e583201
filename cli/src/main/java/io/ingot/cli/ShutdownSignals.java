package io.ingot.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SIGINT (Ctrl-C) and SIGTERM for {@code ingot serve}: the first asks for a graceful stop, a second one ends the
 * process at once ({@code halt(128 + signal)}), without waiting for requests still in flight.
 *
 * <p>Why {@code sun.misc.Signal} (module {@code jdk.unsupported}): the JVM's own handling of these signals runs the
 * shutdown hooks and ignores every further signal until they finish, so a second Ctrl-C could not cut a drain short.
 * Java has no supported API for signal handlers. Closing restores the handlers that were there before, so that a
 * {@code serve} run inside another program (a test) leaves its signals as they were.
 */
final class ShutdownSignals implements AutoCloseable
{
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

    private ShutdownSignals(final Runnable stop, final PrintStream out)
    {
        final AtomicBoolean received = new AtomicBoolean();
        final SignalHandler handler = signal ->
        {
            if (received.compareAndSet(false, true))
            {
                out.println("Received SIG" + signal.getName() + ": stopping gracefully (a second signal exits at "
                    + "once).");
                out.flush();
                stop.run();
                return;
            }
            out.println("Received SIG" + signal.getName() + " again: exiting at once, without waiting for the "
                + "requests still in flight.");
            out.flush();
            Runtime.getRuntime().halt(128 + signal.getNumber());
        };
        for (final String name : SIGNALS)
        {
            final Signal signal = new Signal(name);
            previous.put(signal, Signal.handle(signal, handler));
        }
    }

    /**
     * @param stop called (on a signal thread) at the first signal
     * @param out  where the signals are reported
     * @return the installed handlers; close to restore the previous ones
     */
    static ShutdownSignals install(final Runnable stop, final PrintStream out)
    {
        return new ShutdownSignals(stop, out);
    }

    @Override
    public void close()
    {
        previous.forEach(Signal::handle);
    }
}
