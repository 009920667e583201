package io.ingot.server.ipc;

import io.ingot.api.InferenceCore;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IPC transport in a graceful stop (issue 14, defect 4: in-flight IPC requests got "server gone"): after
 * {@link IpcServer#stopAccepting()} new requests are answered UNAVAILABLE; the requests it took are answered with
 * their results (running) or UNAVAILABLE (queued when the core closed), and only then does the server close.
 */
class IpcGracefulStopTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void requestsTakenBeforeTheStopAreAnsweredBeforeTheServerCloses() throws Exception
    {
        final InferenceCore core = IpcTestSupport.core(IpcTestSupport.slow(500_000));
        final String name = IpcTestSupport.uniqueName("ipc-graceful");
        try (IpcServer server = IpcServer.start(core, name, IpcTestSupport.testOptions().build());
             IpcClient client = IpcClient.connect(name);
             IpcTensor input = client.allocate(IpcDataType.FP32, 16))
        {
            final List<Long> taken = new ArrayList<>();
            for (int i = 0; i < 4; i++)
            {
                taken.add(client.submit(new IpcRequest("slow").addInput("INPUT0", input).requestOutput("OUTPUT0")));
            }
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (server.statistics().requestsReceived() < 4 && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            server.stopAccepting();
            final long late = client.submit(new IpcRequest("slow").addInput("INPUT0", input).requestOutput("OUTPUT0"));
            try (IpcResponse refused = client.await(late, WAIT))
            {
                assertEquals(IpcStatus.UNAVAILABLE, refused.status());
                assertTrue(refused.message().contains("the server is shutting down"), refused.message());
            }
            final Thread closer = Thread.ofPlatform().start(core::close);
            assertTrue(server.awaitDrained(System.nanoTime() + 30_000_000_000L), "requests still in flight");
            closer.join(30_000);
            int results = 0;
            for (final long id : taken)
            {
                try (IpcResponse response = client.await(id, WAIT))
                {
                    if (response.status() == IpcStatus.OK)
                    {
                        results++;
                    }
                    else
                    {
                        assertEquals(IpcStatus.UNAVAILABLE, response.status(), response.message());
                    }
                }
            }
            assertTrue(results >= 1, "the running requests deliver their results");
        }
        finally
        {
            core.close();
        }
    }
}
