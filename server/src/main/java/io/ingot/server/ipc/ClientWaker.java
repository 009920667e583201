package io.ingot.server.ipc;

import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.Doorbell;

/**
 * Wakes one client after a response was written, the way that client waits (docs/ipc.md, "Wake-ups"): a client that
 * raises its {@code client_waiting} flag with a fence is woken only when the flag is up; one that waits without a
 * fence has its doorbell changed before the flag is read; an older Python client, which raises no flag, is always
 * woken. The IPC thread sets the mode when it activates the slot; any thread that wrote a response wakes.
 */
final class ClientWaker
{
    /** Wake mode: a full fence, then a system call only if {@code client_waiting} is up ({@link Doorbell#ring()}). */
    static final int WAKE_IF_FLAGGED = 0;
    /** Wake mode: change the doorbell, then a system call only if the flag is up ({@link Doorbell#changeAndRing()}). */
    static final int WAKE_CHANGE_THEN_FLAG = 1;
    /** Wake mode: change the doorbell and make the system call after every response ({@link Doorbell#ringAlways()}). */
    static final int WAKE_ALWAYS = 2;

    private final Doorbell clientBell;
    /** How this slot's client is woken: one of the {@code WAKE_*} above. */
    private volatile int wakeMode;

    /** @param clientBell the client's doorbell */
    ClientWaker(final Doorbell clientBell)
    {
        this.clientBell = clientBell;
    }

    /**
     * @param kind  the entry's {@code client_kind}
     * @param flags the entry's {@code client_flags}
     * @return how to wake that client: a client that waits without a fence has its doorbell changed before its flag is
     *         read; an older Python client, which raises no flag, is always woken; any other client fences, and is
     *         woken only when its flag is up
     */
    static int wakeModeOf(final int kind, final int flags)
    {
        if ((flags & ClientEntryDescriptor.FLAG_WAITS_WITHOUT_FENCE) != 0)
        {
            return WAKE_CHANGE_THEN_FLAG;
        }
        return kind == ClientEntryDescriptor.KIND_PYTHON ? WAKE_ALWAYS : WAKE_IF_FLAGGED;
    }

    /**
     * Adopts the wake mode of the client that now holds the slot.
     *
     * @param kind  the entry's {@code client_kind}
     * @param flags the entry's {@code client_flags}
     */
    void adopt(final int kind, final int flags)
    {
        wakeMode = wakeModeOf(kind, flags);
    }

    /** Wakes the client if it may sleep on its doorbell, as its {@link #wakeModeOf wake mode} says. */
    void wake()
    {
        switch (wakeMode)
        {
            case WAKE_CHANGE_THEN_FLAG -> clientBell.changeAndRing();
            case WAKE_ALWAYS -> clientBell.ringAlways();
            default -> clientBell.ring();
        }
    }
}
