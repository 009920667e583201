package io.ingot.server.ipc;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One server thread per request while the model's instance is idle (docs/ipc.md, "Threads"): the IPC thread that
 * reads an INFER frame runs its batch and writes the RESPONSE frame itself when the engine runs on any thread; an
 * engine that needs its own thread is run by its instance's thread, as before.
 */
class IpcCallerRunsTest
{
    private static final int REQUESTS = 30;

    private final RecordingBackend recording = new RecordingBackend();

    @Test
    void anIdleInstancesBatchRunsOnTheIpcThreadAndAnOwnThreadEngineOnItsInstance()
    {
        final String name = IpcTestSupport.uniqueName("ipc-caller-runs");
        final CoreOptions options = TestModels.options(
            TestModels.recording("lent", 8, "parameters { key: 'any_thread' value { string_value: 'true' } }"),
            TestModels.recording("owned", 8, "")).backend(recording).idleMode(IdleMode.BLOCKING).build();
        try (InferenceCore core = InferenceCore.open(options);
            IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().build());
            IpcClient client = IpcClient.connect(name);
            IpcTensor input = client.allocate(IpcDataType.INT32, 1, 1))
        {
            for (final String model : List.of("lent", "owned"))
            {
                final IpcRequest request = new IpcRequest(model).addInput("INPUT0", input);
                for (int i = 0; i < REQUESTS; i++)
                {
                    LockSupport.parkNanos(2_000_000L);  // the instance's thread, if woken, goes back to sleep
                    input.segment().set(ValueLayout.JAVA_INT, 0, i);
                    try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(30)))
                    {
                        response.throwIfError();
                        assertEquals(i, response.output("OUTPUT0").segment().get(ValueLayout.JAVA_INT, 0));
                    }
                }
            }
            final String ipcThread = "ingot-ipc-" + name;
            final List<String> lent = recording.recorder("lent").threads;
            final int first = lent.indexOf(ipcThread);
            assertTrue(first >= 0 && first < REQUESTS / 3, "the IPC thread ran the idle instance's batches: " + lent);
            // Once the IPC thread ran a batch, it runs the later ones too, the instance's thread asleep — except after
            // a batch that took over 1 ms (a preempted one, on a loaded machine), whose successor the instance's own
            // thread runs (InstanceAgent.QUICK_BATCH_NS). So most, not all, later batches are the IPC thread's.
            final long onIpcThread = lent.subList(first, lent.size()).stream().filter(ipcThread::equals).count();
            assertTrue(onIpcThread * 4 >= (lent.size() - first) * 3L,
                "at least three quarters of the later batches ran on the IPC thread: " + lent);
            for (final String thread : recording.recorder("owned").threads)
            {
                assertTrue(thread.startsWith("ingot-instance-owned-"), thread);
            }
        }
    }
}
