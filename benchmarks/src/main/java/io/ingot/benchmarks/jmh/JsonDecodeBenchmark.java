package io.ingot.benchmarks.jmh;

import com.google.gson.JsonElement;
import io.ingot.server.json.JsonBodies;
import io.ingot.server.json.JsonTensorReader;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP frontend's JSON decode, the part of an HTTP request that grows with its tensors: {@link #tensorData}
 * converts the {@code data} array of one input straight from the body's bytes into the tensor's binary layout
 * ({@code JsonTensorReader}, over the server's {@code JsonScanner}), into an output buffer reused across calls, so that
 * {@code -prof gc} shows what the decode itself allocates (for INT64 nothing per element; for FP32 the text of each
 * number, which {@code Double.parseDouble} needs as a {@code String}); {@link #inferRequest} parses a
 * whole KServe v2 request body (one input, its {@code data} left as a span) and then decodes that span, as the HTTP
 * handler does. Each element is written with a fraction or a sign, so that every number goes through the scanner's
 * number path. Average time; {@code benchmarks/before-after.sh} compares two builds of it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx256m"})
public class JsonDecodeBenchmark
{
    /** One request body and the buffers its decode reuses. */
    @State(Scope.Thread)
    public static class Body
    {
        /** The input's datatype: FP32 (every element through the double path) or INT64 (the integer path). */
        @Param({"FP32", "INT64"})
        public String datatype;

        /** Elements of the input. */
        @Param({"1024"})
        public int elements;

        private DataType dataType;
        private long[] shape;
        private ByteBuf data;
        private ByteBuf request;
        private ByteBuf out;

        /** Writes the bodies. */
        @Setup(Level.Trial)
        public void write()
        {
            dataType = DataType.valueOf(datatype);
            shape = new long[] {1, elements};
            final StringBuilder array = new StringBuilder(elements * 8).append('[');
            for (int i = 0; i < elements; i++)
            {
                if (i > 0)
                {
                    array.append(',');
                }
                // Negative every third, so that both signs are read; FP32 with three decimals.
                final long value = i % 3 == 0 ? -i : i;
                array.append(dataType == DataType.FP32 ? String.format(Locale.ROOT, "%.3f", value / 7.0)
                    : Long.toString(value * 1_000_003L));
            }
            array.append(']');
            data = Unpooled.directBuffer().writeBytes(array.toString().getBytes(StandardCharsets.US_ASCII));
            final String body = "{\"id\":\"bench\",\"parameters\":{\"binary_data_output\":false},\"inputs\":[{\"name\":"
                + "\"INPUT0\",\"datatype\":\"" + datatype + "\",\"shape\":[1," + elements + "],\"data\":" + array
                + "}],\"outputs\":[{\"name\":\"OUTPUT0\"}]}";
            request = Unpooled.directBuffer().writeBytes(body.getBytes(StandardCharsets.UTF_8));
            out = Unpooled.directBuffer(elements * 8);
        }

        /** Frees the buffers. */
        @TearDown(Level.Trial)
        public void free()
        {
            data.release();
            request.release();
            out.release();
        }
    }

    /**
     * @param body the state
     * @return the output buffer, filled
     */
    @Benchmark
    public ByteBuf tensorData(final Body body)
    {
        body.out.clear();
        JsonTensorReader.read("INPUT0", body.dataType, body.shape, body.elements, body.data,
            body.data.readerIndex(), body.data.writerIndex(), body.out);
        return body.out;
    }

    /**
     * @param body the state
     * @return the output buffer, filled
     */
    @Benchmark
    public ByteBuf inferRequest(final Body body)
    {
        final JsonElement parsed = JsonBodies.parseInferRequest(body.request, 0, body.request.readableBytes());
        final JsonElement data = parsed.getAsJsonObject().getAsJsonArray("inputs").get(0).getAsJsonObject()
            .get("data");
        body.out.clear();
        JsonTensorReader.read("INPUT0", body.dataType, body.shape, body.elements, data, body.out);
        return body.out;
    }
}
