package io.ingot.ipc;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class ProcessIdentityTest
{
    private final ProcessIdentity self = ProcessIdentity.current();

    @Test
    void thisProcessIsAlive()
    {
        assertEquals(ProcessHandle.current().pid(), self.pid());
        assertTrue(self.startTicks() > 0, "start ticks from /proc/self/stat");
        assertTrue(self.pidNamespace() > 0, "pid namespace from /proc/self/ns/pid");
        assertEquals(ProcessIdentity.Liveness.ALIVE,
            ProcessIdentity.probe(self.pid(), self.startTicks(), self.pidNamespace()));
    }

    @Test
    void aReusedPidLooksGone()
    {
        assertEquals(ProcessIdentity.Liveness.GONE,
            ProcessIdentity.probe(self.pid(), self.startTicks() + 1, self.pidNamespace()));
    }

    @Test
    void anExitedProcessIsGoneAndAnotherNamespaceIsUnknown() throws Exception
    {
        final Process child = new ProcessBuilder("true").start();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(ProcessIdentity.Liveness.GONE, ProcessIdentity.probe(child.pid(), 0, self.pidNamespace()));
        assertEquals(ProcessIdentity.Liveness.UNKNOWN,
            ProcessIdentity.probe(self.pid(), self.startTicks(), self.pidNamespace() + 1));
        assertEquals(ProcessIdentity.Liveness.UNKNOWN, ProcessIdentity.probe(self.pid(), self.startTicks(), 0));
    }
}
