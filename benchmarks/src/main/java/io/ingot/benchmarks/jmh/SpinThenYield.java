package io.ingot.benchmarks.jmh;

/**
 * How the benchmarks' own threads wait for something another thread will do soon — a producer for a reusable request
 * to come back, a consumer for items — so that every pipeline and ring under comparison meets the same waiting: spin
 * for the first {@value #SPINS} looks, then yield the core between looks. Never sleeps. Stateless; any thread.
 */
final class SpinThenYield
{
    /** Looks spent spinning before each further look yields. */
    static final int SPINS = 64;

    private SpinThenYield()
    {
    }

    /**
     * Waits a little before the next look.
     *
     * @param looks how many looks in a row found nothing, this one included
     */
    static void pause(final int looks)
    {
        if (looks < SPINS)
        {
            Thread.onSpinWait();
        }
        else
        {
            Thread.yield();
        }
    }
}
