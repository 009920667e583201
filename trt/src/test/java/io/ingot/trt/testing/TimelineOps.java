package io.ingot.trt.testing;

import io.ingot.cuda.CudaRuntime;
import io.ingot.device.CudaEvent;
import io.ingot.device.CudaStream;
import io.ingot.trt.gpu.DeviceMemoryOps;
import io.ingot.trt.gpu.DeviceStream;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Wraps CUDA {@link DeviceMemoryOps} to time every execution on the GPU itself: a timing event is recorded on the
 * instance's stream when an execution queues its first copy, and another just before it waits for the stream. The
 * events' times relative to an origin event give each execution's interval on the GPU's clock, comparable across
 * streams. Test instrumentation only.
 */
public final class TimelineOps implements DeviceMemoryOps, AutoCloseable
{
    /**
     * One execution as the GPU saw it.
     *
     * @param stream  which stream (instance) ran it, in opening order
     * @param startMs when its first copy was reached, milliseconds after the origin
     * @param endMs   when its last queued work finished, milliseconds after the origin
     */
    public record Interval(int stream, double startMs, double endMs)
    {
    }

    private record Marks(int stream, CudaEvent start, CudaEvent end)
    {
    }

    private final DeviceMemoryOps cuda;
    private final CudaEvent origin;
    private final List<Marks> marks = new ArrayList<>();
    private int streams;

    /**
     * @param cuda the CUDA operations to wrap (device 0 is made current and the origin recorded now)
     */
    public TimelineOps(final DeviceMemoryOps cuda)
    {
        this.cuda = cuda;
        cuda.useDevice(0);
        this.origin = CudaEvent.create(CudaRuntime.cudaEventDefault);
        try (CudaStream stream = CudaStream.create())
        {
            origin.record(stream);
            origin.synchronize();
        }
    }

    @Override
    public String name()
    {
        return "timed " + cuda.name();
    }

    @Override
    public void useDevice(final int deviceId)
    {
        cuda.useDevice(deviceId);
    }

    @Override
    public synchronized DeviceStream openStream(final int deviceId)
    {
        return new TimedStream(streams++, cuda.openStream(deviceId));
    }

    /** @return every execution's interval, in start order; call after the executions finished */
    public synchronized List<Interval> intervals()
    {
        final List<Interval> intervals = new ArrayList<>();
        for (final Marks mark : marks)
        {
            intervals.add(new Interval(mark.stream(), mark.start().elapsedMillisSince(origin),
                mark.end().elapsedMillisSince(origin)));
        }
        intervals.sort(Comparator.comparingDouble(Interval::startMs));
        return intervals;
    }

    /**
     * Forgets what was recorded so far: an engine's creation uploads its weights with the same copy-then-synchronize
     * shape as an execution, so a test that times executions discards those first. Call when the streams are idle.
     */
    public synchronized void discardRecorded()
    {
        closeMarks();
    }

    /**
     * @param intervals executions
     * @return how many pairs of executions on different streams overlap in time
     */
    public static long overlappingPairs(final List<Interval> intervals)
    {
        long pairs = 0;
        for (int i = 0; i < intervals.size(); i++)
        {
            for (int j = i + 1; j < intervals.size(); j++)
            {
                final Interval a = intervals.get(i);
                final Interval b = intervals.get(j);
                if (a.stream() != b.stream() && a.startMs() < b.endMs() && b.startMs() < a.endMs())
                {
                    pairs++;
                }
            }
        }
        return pairs;
    }

    /**
     * @param intervals executions
     * @return the most executions running at one instant
     */
    public static int peakConcurrency(final List<Interval> intervals)
    {
        final List<double[]> edges = new ArrayList<>();
        for (final Interval interval : intervals)
        {
            edges.add(new double[] {interval.startMs(), 1});
            edges.add(new double[] {interval.endMs(), -1});
        }
        // At equal times an end comes before a start: touching intervals do not overlap.
        edges.sort(Comparator.<double[]>comparingDouble(edge -> edge[0]).thenComparingDouble(edge -> edge[1]));
        int running = 0;
        int peak = 0;
        for (final double[] edge : edges)
        {
            running += (int) edge[1];
            peak = Math.max(peak, running);
        }
        return peak;
    }

    @Override
    public synchronized void close()
    {
        closeMarks();
        origin.close();
    }

    private void closeMarks()
    {
        for (final Marks mark : marks)
        {
            mark.start().close();
            mark.end().close();
        }
        marks.clear();
    }

    private synchronized void add(final Marks mark)
    {
        marks.add(mark);
    }

    /** Delegates everything, recording the start and end of each execution. */
    private final class TimedStream implements DeviceStream
    {
        private final int index;
        private final DeviceStream stream;
        private CudaEvent pendingStart;

        TimedStream(final int index, final DeviceStream stream)
        {
            this.index = index;
            this.stream = stream;
        }

        @Override
        public int deviceId()
        {
            return stream.deviceId();
        }

        @Override
        public MemorySegment handle()
        {
            return stream.handle();
        }

        @Override
        public void makeCurrent()
        {
            stream.makeCurrent();
        }

        @Override
        public MemorySegment allocate(final long byteSize)
        {
            return stream.allocate(byteSize);
        }

        @Override
        public void free(final MemorySegment deviceMemory)
        {
            stream.free(deviceMemory);
        }

        @Override
        public void copyToDevice(final MemorySegment host, final MemorySegment device, final long byteSize)
        {
            if (pendingStart == null)
            {
                pendingStart = CudaEvent.create(CudaRuntime.cudaEventDefault);
                CudaRuntime.cudaEventRecord(pendingStart.handle(), stream.handle());
            }
            stream.copyToDevice(host, device, byteSize);
        }

        @Override
        public void copyToHost(final MemorySegment device, final MemorySegment host, final long byteSize)
        {
            stream.copyToHost(device, host, byteSize);
        }

        @Override
        public void copyOnDevice(final MemorySegment source, final MemorySegment target, final long byteSize)
        {
            stream.copyOnDevice(source, target, byteSize);
        }

        @Override
        public void synchronize()
        {
            if (pendingStart != null)
            {
                final CudaEvent end = CudaEvent.create(CudaRuntime.cudaEventDefault);
                CudaRuntime.cudaEventRecord(end.handle(), stream.handle());
                add(new Marks(index, pendingStart, end));
                pendingStart = null;
            }
            stream.synchronize();
        }

        @Override
        public boolean supportsGraphs()
        {
            return stream.supportsGraphs();
        }

        @Override
        public void beginCapture()
        {
            stream.beginCapture();
        }

        @Override
        public MemorySegment endCapture()
        {
            return stream.endCapture();
        }

        @Override
        public void launchGraph(final MemorySegment graph)
        {
            stream.launchGraph(graph);
        }

        @Override
        public void destroyGraph(final MemorySegment graph)
        {
            stream.destroyGraph(graph);
        }

        @Override
        public void close()
        {
            if (pendingStart != null)
            {
                pendingStart.close();
                pendingStart = null;
            }
            stream.close();
        }
    }
}
