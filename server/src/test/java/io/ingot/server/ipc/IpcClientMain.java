package io.ingot.server.ipc;

import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Child process of the multi-process tests: {@code THREADS} clients, each its own slot, run {@code REQUESTS} add_sub
 * requests with random inputs, four in flight at a time, and check every element of every response. Prints
 * {@code CONNECTED}, then {@code OK <count>} or {@code FAIL <reason>} (exit code 1). With a fifth argument, a file
 * path, every client stops half-way (its connection held, requests still in flight), the process prints
 * {@code HALFWAY}, and the clients go on once the file exists: a test can act while they are surely connected.
 */
public final class IpcClientMain
{
    private static final int WINDOW = 4;

    private IpcClientMain()
    {
    }

    /**
     * @param args IPC name, model ({@code add_sub} or {@code add_sub_batched}), threads, requests per thread
     * @throws Exception on failure to start threads
     */
    public static void main(final String[] args) throws Exception
    {
        final String name = args[0];
        final String model = args[1];
        final int threads = Integer.parseInt(args[2]);
        final int requests = Integer.parseInt(args[3]);
        final Path hold = args.length > 4 ? Path.of(args[4]) : null;
        final CountDownLatch halfway = new CountDownLatch(threads);
        final long[] shape = model.endsWith("batched") ? new long[] {1, 16} : new long[] {16};
        final AtomicLong verified = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> workers = new ArrayList<>();
        final List<IpcClient> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            clients.add(IpcClient.connect(name));
        }
        System.out.println("CONNECTED " + threads);
        System.out.flush();
        for (int t = 0; t < threads; t++)
        {
            final IpcClient client = clients.get(t);
            final long seed = ProcessHandle.current().pid() * 31 + t;
            workers.add(Thread.ofPlatform().start(() ->
            {
                try (client)
                {
                    run(client, model, shape, requests, new Random(seed), verified, hold, halfway);
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }));
        }
        if (hold != null)
        {
            boolean reached = false;
            while (!reached && failure.get() == null)
            {
                reached = halfway.await(100, TimeUnit.MILLISECONDS);
            }
            if (reached)
            {
                System.out.println("HALFWAY");
                System.out.flush();
            }
        }
        for (final Thread worker : workers)
        {
            worker.join();
        }
        if (failure.get() != null)
        {
            System.out.println("FAIL " + failure.get());
            failure.get().printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
        System.out.println("OK " + verified.get());
        System.out.flush();
    }

    private static void run(final IpcClient client, final String model, final long[] shape, final int requests,
        final Random random, final AtomicLong verified, final Path hold, final CountDownLatch halfway)
        throws InterruptedException
    {
        final IpcTensor[][] tensors = new IpcTensor[WINDOW][2];
        final float[][][] values = new float[WINDOW][2][16];
        final long[] ids = new long[WINDOW];
        final IpcRequest request = new IpcRequest(model);
        for (int w = 0; w < WINDOW; w++)
        {
            tensors[w][0] = client.allocate(IpcDataType.FP32, shape);
            tensors[w][1] = client.allocate(IpcDataType.FP32, shape);
        }
        int sent = 0;
        int received = 0;
        while (received < requests)
        {
            while (sent < requests && sent - received < WINDOW)
            {
                final int w = sent % WINDOW;
                for (int input = 0; input < 2; input++)
                {
                    for (int i = 0; i < 16; i++)
                    {
                        values[w][input][i] = random.nextInt(1 << 20);
                        tensors[w][input].segment().setAtIndex(ValueLayout.JAVA_FLOAT, i, values[w][input][i]);
                    }
                }
                ids[w] = client.submit(request.clearInputs().clearOutputs().addInput("INPUT0", tensors[w][0])
                    .addInput("INPUT1", tensors[w][1]).requestOutput("OUTPUT0").requestOutput("OUTPUT1"));
                sent++;
            }
            final int w = received % WINDOW;
            try (IpcResponse response = client.await(ids[w], Duration.ofSeconds(60)).throwIfError())
            {
                for (int i = 0; i < 16; i++)
                {
                    final float sum = response.output("OUTPUT0").segment().getAtIndex(ValueLayout.JAVA_FLOAT, i);
                    final float difference = response.output("OUTPUT1").segment().getAtIndex(ValueLayout.JAVA_FLOAT,
                        i);
                    if (sum != values[w][0][i] + values[w][1][i] || difference != values[w][0][i] - values[w][1][i])
                    {
                        throw new AssertionError("response " + ids[w] + " element " + i + ": got " + sum + ", "
                            + difference + " for " + values[w][0][i] + ", " + values[w][1][i]);
                    }
                }
            }
            received++;
            verified.incrementAndGet();
            if (hold != null && received == requests / 2)
            {
                halfway.countDown();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
                while (!Files.exists(hold))
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new AssertionError("the test did not create " + hold + " within 240 s");
                    }
                    Thread.sleep(5);
                }
            }
        }
    }
}
