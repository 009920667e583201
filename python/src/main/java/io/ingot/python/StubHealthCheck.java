package io.ingot.python;

/**
 * Decides whether a stub is still healthy while a thread waits on it: the process lives, its heartbeat (a counter the
 * stub's own thread bumps in the region) moved within the stub timeout, and the caller's deadline has not passed. A
 * stub that fails the last two is killed, since it may be stuck in the model's code and would hold its instance
 * forever; one that died is only reported.
 *
 * <p>Contract: every failure is a {@link PythonStubException} naming the model, the instance, what the stub was doing,
 * its pid and its last lines of standard error. Not thread-safe: called by the stub's role holder only
 * ({@link StubProcess}).
 */
final class StubHealthCheck
{
    private final StubProcess stub;
    private final String instance;
    private final PythonSettings settings;
    private final StubRegion region;
    private long lastHeartbeat = -1;
    private long lastBeatNanos;
    private boolean greeted;

    /**
     * @param stub     the stub watched (killed and described through it)
     * @param instance the instance's name, for messages
     * @param settings the model's settings (the stub timeout)
     * @param region   the region holding the heartbeat
     */
    StubHealthCheck(final StubProcess stub, final String instance, final PythonSettings settings,
        final StubRegion region)
    {
        this.stub = stub;
        this.instance = instance;
        this.settings = settings;
        this.region = region;
        this.lastBeatNanos = System.nanoTime();
    }

    /** The stub greeted: from now on its heartbeat must move. */
    void greeted()
    {
        greeted = true;
    }

    /**
     * @param what     what the stub is doing
     * @param deadline {@link System#nanoTime()} deadline, or 0
     * @throws PythonStubException when the stub died, its heartbeat stalled past the stub timeout, or the deadline
     *     passed (the stub is killed then)
     */
    void check(final String what, final long deadline) throws PythonStubException
    {
        final String label = stub.label();
        if (!stub.isAlive())
        {
            throw new PythonStubException(label + ": the stub process (pid " + stub.pid() + ") "
                + stub.exitDescription() + " while " + what + stub.lastOutput());
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
            stub.kill();
            throw new PythonStubException(label + ": Stub process '" + instance + "' is not healthy: its heartbeat did "
                + "not move for " + settings.stubTimeout().toSeconds() + " s (" + PythonSettings.STUB_TIMEOUT
                + ") while " + what + "; the stub (pid " + stub.pid() + ") was killed" + stub.lastOutput());
        }
        if (deadline != 0 && now - deadline > 0)
        {
            stub.kill();
            throw new PythonStubException(label + ": the stub did not finish " + what + " in time; the stub (pid "
                + stub.pid() + ") was killed" + stub.lastOutput());
        }
    }

    /**
     * @param process a process
     * @return "is running", "exited with status 1" or "was killed by signal 9 (SIGKILL)"
     */
    static String exitDescription(final Process process)
    {
        if (process.isAlive())
        {
            return "is running";
        }
        final int status = process.exitValue();
        // The JDK reports a death by signal N as the shell does, 128 + N.
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
}
