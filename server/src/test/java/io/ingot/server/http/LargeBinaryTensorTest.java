package io.ingot.server.http;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.ModelContext;
import io.ingot.libc.Posix;
import io.ingot.server.FrontendOptions;
import io.ingot.server.testing.RawHttp;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1 GiB binary tensor over HTTP with the frontend's default options, as Triton accepts one (its QA,
 * {@code L0_large_payload}, sends 1.9 GB tensors with default flags): Triton's {@code --http-max-input-size} (64 MiB)
 * bounds the JSON part, not the binary data. The model is this test's own {@code checksum} backend, which reads its
 * input where the body holds it and answers 8 bytes, so that the server needs the body once and nothing more; the
 * body's bytes must arrive exactly (an FNV-1a hash of every byte, computed by the client as it sends). Memory is
 * checked while the model runs: the body is held once (the budget holds at most the body and one reservation step;
 * the process grew by less than one and a half bodies). A body larger than one buffer addresses is refused at once,
 * from its {@code Content-Length}, as Triton refuses its 3 GiB test tensor over HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Isolated("it measures the process's resident memory, which test classes running beside it would move")
class LargeBinaryTensorTest
{
    private static final long TENSOR_BYTES = 1L << 30;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** What the model saw while it ran: the budget's holding and the process's resident memory. */
    private final AtomicLong heldWhileRunning = new AtomicLong(-1);
    private final AtomicLong residentWhileRunning = new AtomicLong(-1);

    private ServingFixture server;

    /** {@code backend: "checksum"}: UINT8 [-1] in, its FNV-1a hash out as UINT64 [1]. */
    private final class ChecksumBackend implements BackendFactory
    {
        @Override
        public String name()
        {
            return "checksum";
        }

        @Override
        public Backend load(final ModelContext context)
        {
            return instance -> this::execute;
        }

        private void execute(final Batch batch) throws IOException
        {
            heldWhileRunning.set(server.frontends().http().bodyBudget().held());
            residentWhileRunning.set(residentBytes());
            final MemorySegment data = batch.input(0).data();
            long hash = FNV_OFFSET;
            for (long i = 0; i < data.byteSize(); i++)
            {
                hash = (hash ^ (data.get(ValueLayout.JAVA_BYTE, i) & 0xFF)) * FNV_PRIME;
            }
            batch.allocateOutput("HASH", new long[] {1}).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, hash);
        }
    }

    private ServingFixture server()
    {
        if (server == null)
        {
            server = new ServingFixture(TestModels.options(TestModels.config("""
                name: "checksum" backend: "checksum" max_batch_size: 0
                input [{ name: "INPUT0" data_type: TYPE_UINT8 dims: [-1] }]
                output [{ name: "HASH" data_type: TYPE_UINT64 dims: [1] }]
                """)).backend(new ChecksumBackend()).build(),
                options -> options.withMaxHttpRequestBytes(FrontendOptions.DEFAULT_MAX_HTTP_REQUEST_BYTES));
        }
        return server;
    }

    @AfterAll
    void stop()
    {
        if (server != null)
        {
            server.close();
        }
    }

    /** The body: the JSON part, then {@code TENSOR_BYTES} bytes of a pattern, hashed as they are read. */
    private static final class TensorBody extends InputStream
    {
        private static final int PERIOD = 1_000_003;
        private final byte[] header;
        private final byte[] pattern = new byte[PERIOD];
        private long position;
        private long hash = FNV_OFFSET;

        TensorBody(final byte[] header)
        {
            this.header = header;
            for (int i = 0; i < PERIOD; i++)
            {
                pattern[i] = (byte) (i * 2_654_435_761L >>> 13);
            }
        }

        long length()
        {
            return header.length + TENSOR_BYTES;
        }

        @Override
        public int read()
        {
            final byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(final byte[] into, final int offset, final int length)
        {
            if (position >= length())
            {
                return -1;
            }
            int n = 0;
            while (n < length && position < length())
            {
                if (position < header.length)
                {
                    into[offset + n++] = header[(int) position++];
                    continue;
                }
                final long tensorPosition = position - header.length;
                final int from = (int) (tensorPosition % PERIOD);
                final int run = (int) Math.min(Math.min(length - n, PERIOD - from), length() - position);
                System.arraycopy(pattern, from, into, offset + n, run);
                for (int i = 0; i < run; i++)
                {
                    hash = (hash ^ (pattern[from + i] & 0xFF)) * FNV_PRIME;
                }
                n += run;
                position += run;
            }
            return n;
        }
    }

    @Test
    void aOneGibibyteBinaryTensorIsAcceptedWithDefaultFlagsAndHeldOnce() throws Exception
    {
        Assumptions.assumeTrue(HttpLimits.DEFAULT_BODY_MEMORY_BYTES > TENSOR_BYTES + (64L << 20),
            () -> "this machine's default body memory (" + HttpLimits.DEFAULT_BODY_MEMORY_BYTES + " bytes, half of its"
                + " memory) cannot hold a 1 GiB body");
        final ServingFixture serving = server();
        final byte[] header = ("{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"UINT8\",\"shape\":[" + TENSOR_BYTES
            + "],\"parameters\":{\"binary_data_size\":" + TENSOR_BYTES + "}}],\"outputs\":[{\"name\":\"HASH\"}]}")
            .getBytes(StandardCharsets.UTF_8);
        final TensorBody body = new TensorBody(header);
        final long residentBefore = residentBytes();
        final boolean peakReset = resetPeakResident();
        final RawHttp.Response response;
        // A raw socket fed through one reused buffer: the client makes no garbage, so the process's resident memory
        // moves with the server's holding of the body, not with the growth of a client's heap (which, on a loaded
        // machine, the collector expands by hundreds of megabytes).
        try (Socket socket = new Socket("127.0.0.1", serving.frontends().httpPort()))
        {
            socket.setSoTimeout(180_000);
            final OutputStream out = socket.getOutputStream();
            out.write(("POST /v2/models/checksum/infer HTTP/1.1\r\nHost: x\r\nInference-Header-Content-Length: "
                + header.length + "\r\nContent-Length: " + body.length() + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            body.transferTo(out);
            out.flush();
            response = RawHttp.read(socket.getInputStream());
        }
        final String text = response.body();
        assertEquals(200, response.status(), text);
        assertTrue(text.contains("\"data\":[" + Long.toUnsignedString(body.hash) + "]"),
            "every byte arrived in place: the model's hash is the client's " + Long.toUnsignedString(body.hash)
                + ": " + text);
        assertTrue(heldWhileRunning.get() <= body.length() + (1 << 20),
            "the body is held once: the budget held " + heldWhileRunning.get() + " bytes for a body of "
                + body.length());
        assertTrue(heldWhileRunning.get() >= TENSOR_BYTES, "the body is counted: " + heldWhileRunning.get());
        final long grown = residentWhileRunning.get() - residentBefore;
        assertTrue(grown < TENSOR_BYTES * 3 / 2, "the process grew by " + grown + " bytes for a 1 GiB body");
        if (peakReset)
        {
            // The high-water mark over the whole request: a body grown by copying would have held 1.5 GiB at once.
            final long peak = peakResident() - residentBefore;
            assertTrue(peak < TENSOR_BYTES * 5 / 4, "the process peaked " + peak + " bytes above where it started");
        }
        assertEquals(0, awaitReleased(serving), "the body's memory went back when the response was sent");
    }

    @Test
    void aBodyLargerThanOneBufferAddressesIsRefusedFromItsContentLength() throws IOException
    {
        final ServingFixture serving = server();
        try (Socket socket = new Socket("127.0.0.1", serving.frontends().httpPort()))
        {
            socket.setSoTimeout(30_000);
            final long declared = 3L << 30;
            socket.getOutputStream().write(("POST /v2/models/checksum/infer HTTP/1.1\r\nHost: x\r\n"
                + "Inference-Header-Content-Length: 100\r\nContent-Length: " + declared + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            final RawHttp.Response refused = RawHttp.read(socket.getInputStream());
            assertEquals(400, refused.status(), refused.body());
            assertTrue(refused.body().contains("request body of " + declared + " bytes exceeds the largest body this"
                + " server reads, " + HttpBodyAggregator.MAX_BODY_BYTES + " bytes"), refused.body());
        }
        assertEquals(0, serving.frontends().http().bodyBudget().held());
    }

    private static long awaitReleased(final ServingFixture serving) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (serving.frontends().http().bodyBudget().held() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        return serving.frontends().http().bodyBudget().held();
    }

    /** @return whether the kernel's resident high-water mark was reset (writing 5 to /proc/self/clear_refs) */
    private static boolean resetPeakResident()
    {
        try
        {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        }
        catch (final IOException | SecurityException notHere)
        {
            return false;
        }
    }

    /** @return the resident high-water mark since the last reset, from /proc/self/status (VmHWM) */
    private static long peakResident() throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
        {
            if (line.startsWith("VmHWM:"))
            {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("/proc/self/status has no VmHWM");
    }

    /** @return the process's resident memory, from /proc/self/statm */
    private static long residentBytes() throws IOException
    {
        final String[] fields = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
        return Long.parseLong(fields[1]) * Posix.pageSize();
    }
}
