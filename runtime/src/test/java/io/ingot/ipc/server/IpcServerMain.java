package io.ingot.ipc.server;

import io.ingot.api.InferenceCore;

/**
 * Child process of the restart test: a core with the test models served over IPC; prints
 * {@code SERVING <pid> <generation>} and runs until killed.
 */
public final class IpcServerMain
{
    private IpcServerMain()
    {
    }

    /**
     * @param args IPC name
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception
    {
        final InferenceCore core = IpcTestSupport.core(IpcTestSupport.addSub(), IpcTestSupport.slow(2_000_000));
        final IpcServer server = IpcServer.start(core, args[0], IpcTestSupport.testOptions().build());
        System.out.println("SERVING " + ProcessHandle.current().pid() + " " + server.generation());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
