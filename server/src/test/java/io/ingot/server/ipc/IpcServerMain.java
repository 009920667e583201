package io.ingot.server.ipc;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;

import java.nio.file.Path;

/**
 * Child process of the restart test, and a stand-in for {@code ingot serve --ipc NAME}: a core with the test models
 * (or, given a second argument, the models of that repository) served over IPC; prints
 * {@code SERVING <pid> <generation>} and runs until killed.
 */
public final class IpcServerMain
{
    private IpcServerMain()
    {
    }

    /**
     * @param args IPC name, optionally a model repository
     * @throws Exception never expected
     */
    public static void main(final String[] args) throws Exception
    {
        final InferenceCore core = args.length > 1
            ? InferenceCore.open(CoreOptions.builder().modelRepository(Path.of(args[1])).build())
            : IpcTestSupport.core(IpcTestSupport.addSub(), IpcTestSupport.slow(2_000_000));
        final IpcServer server = IpcServer.start(core, args[0], IpcTestSupport.testOptions().build());
        System.out.println("SERVING " + ProcessHandle.current().pid() + " " + server.generation());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
