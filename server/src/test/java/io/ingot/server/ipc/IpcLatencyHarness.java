package io.ingot.server.ipc;

import io.ingot.tensor.DataType;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.ipc.IpcDataType;
import io.ingot.ipc.client.IpcClient;
import io.ingot.ipc.client.IpcClientOptions;
import io.ingot.ipc.client.IpcRequest;
import io.ingot.ipc.client.IpcResponse;
import io.ingot.ipc.client.IpcTensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;

/**
 * Round-trip latency of the {@code identity} model through the in-process API and through IPC (client and server in
 * this JVM, talking through {@code /dev/shm} exactly as separate processes do), for 1 element and for 1 MiB.
 * Prints p50/p99/p99.9 in microseconds. Not a test: run it on a quiet machine (docs/ipc.md has the command).
 *
 * <p>Arguments: {@code [idle mode: BLOCKING|BACKOFF|SPINNING (default BACKOFF)] [iterations (default 20000)]}.
 */
public final class IpcLatencyHarness
{
    private IpcLatencyHarness()
    {
    }

    /**
     * @param args idle mode, iterations
     */
    public static void main(final String[] args)
    {
        final IdleMode idle = args.length > 0 ? IdleMode.valueOf(args[0]) : IdleMode.BACKOFF;
        final int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        final String name = IpcTestSupport.uniqueName("ipc-latency");
        System.out.printf("identity round trip, idle mode %s, %d cores, Java %s%n", idle,
            Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.printf("%-10s %-10s %10s %10s %10s %10s%n", "size", "path", "p50 us", "p99 us", "p99.9 us",
            "samples");
        try (InferenceCore core = IpcTestSupport.core(idle, IpcTestSupport.identity());
            IpcServer server = IpcServer.start(core, name, IpcServerOptions.builder().slabBytes(8L << 20)
                .idleMode(idle).build());
            IpcClient client = IpcClient.connect(name, IpcClientOptions.DEFAULTS.withBusySpin(idle
                == IdleMode.SPINNING));
            Arena arena = Arena.ofShared())
        {
            for (final int elements : new int[] {1, 256 * 1024})
            {
                final int samples = elements == 1 ? iterations : Math.max(200, iterations / 20);
                final String size = elements == 1 ? "1 x FP32" : "1 MiB";
                report(size, "in-process", inProcess(core, arena, elements, samples));
                report(size, "IPC", ipc(client, elements, samples));
            }
        }
    }

    private static long[] inProcess(final InferenceCore core, final Arena arena, final int elements,
        final int samples)
    {
        final MemorySegment data = arena.allocate(4L * elements, 64);
        final InferenceRequest request = new InferenceRequest("identity").addInput("INPUT0", DataType.FP32,
            new long[] {elements}, data);
        final long[] nanos = new long[samples];
        for (int i = -samples / 2; i < samples; i++)
        {
            final long start = System.nanoTime();
            try (InferenceResponse response = core.submit(request).join())
            {
                response.throwIfError();
            }
            if (i >= 0)
            {
                nanos[i] = System.nanoTime() - start;
            }
        }
        return nanos;
    }

    private static long[] ipc(final IpcClient client, final int elements, final int samples)
    {
        final long[] nanos = new long[samples];
        try (IpcTensor input = client.allocate(IpcDataType.FP32, elements))
        {
            final IpcRequest request = new IpcRequest("identity").addInput("INPUT0", input);
            for (int i = -samples / 2; i < samples; i++)
            {
                final long start = System.nanoTime();
                try (IpcResponse response = client.await(client.submit(request), Duration.ofSeconds(30)))
                {
                    response.throwIfError();
                }
                if (i >= 0)
                {
                    nanos[i] = System.nanoTime() - start;
                }
            }
        }
        return nanos;
    }

    private static void report(final String size, final String path, final long[] nanos)
    {
        Arrays.sort(nanos);
        System.out.printf("%-10s %-10s %10.1f %10.1f %10.1f %10d%n", size, path, percentile(nanos, 0.50),
            percentile(nanos, 0.99), percentile(nanos, 0.999), nanos.length);
    }

    private static double percentile(final long[] sorted, final double quantile)
    {
        return sorted[Math.min(sorted.length - 1, (int)(sorted.length * quantile))] / 1_000.0;
    }
}
