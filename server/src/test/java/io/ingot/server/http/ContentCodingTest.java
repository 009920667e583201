package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContentCodingTest
{
    private static final byte[] TEXT = "{\"inputs\":[]} and some more text, repeated repeated repeated"
        .getBytes(StandardCharsets.UTF_8);

    @Test
    void negotiatesByQValue()
    {
        assertEquals(ContentCoding.IDENTITY, ContentCoding.negotiate(null));
        assertEquals(ContentCoding.GZIP, ContentCoding.negotiate("gzip"));
        assertEquals(ContentCoding.DEFLATE, ContentCoding.negotiate("gzip;q=0.5, deflate;q=0.9"));
        assertEquals(ContentCoding.GZIP, ContentCoding.negotiate("br, gzip"));
        assertEquals(ContentCoding.IDENTITY, ContentCoding.negotiate("gzip;q=0, br"));
        assertEquals(ContentCoding.DEFLATE, ContentCoding.negotiate("deflate, gzip"));
        assertEquals(ContentCoding.GZIP, ContentCoding.negotiate("identity;q=0.1, gzip"));
    }

    @Test
    void refusesUnknownRequestCodingsAsUnsupported()
    {
        assertEquals(ContentCoding.IDENTITY, ContentCoding.ofContentEncoding(""));
        assertEquals(ContentCoding.DEFLATE, ContentCoding.ofContentEncoding("Deflate"));
        final InferenceException brotli = assertThrows(InferenceException.class,
            () -> ContentCoding.ofContentEncoding("br"));
        assertEquals(ErrorCode.UNSUPPORTED, brotli.code());
        assertEquals(501, brotli.code().httpStatus());
    }

    @Test
    void decodesGzipAndZlibAndRespectsTheLimit() throws IOException
    {
        final ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzip))
        {
            out.write(TEXT);
        }
        final ByteArrayOutputStream zlib = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(zlib))
        {
            out.write(TEXT);
        }
        final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        final RequestBodyBudget budget = new RequestBodyBudget(1 << 30);
        for (final byte[] coded : new byte[][] {gzip.toByteArray(), zlib.toByteArray()})
        {
            final ByteBuf decoded = ContentCoding.GZIP.decode(Unpooled.wrappedBuffer(coded),
                new HttpInputLimit(1 << 20), budget, alloc);
            assertTrue(budget.held() >= TEXT.length, "the decoded body is counted: " + budget.held());
            final byte[] bytes = new byte[decoded.readableBytes()];
            decoded.readBytes(bytes);
            decoded.release();
            assertArrayEquals(TEXT, bytes);
            assertEquals(0, budget.held(), "released with the body");
        }
        final InferenceException tooBig = assertThrows(InferenceException.class,
            () -> ContentCoding.DEFLATE.decode(Unpooled.wrappedBuffer(zlib.toByteArray()), new HttpInputLimit(10),
                budget, alloc));
        assertEquals("Decompressed data size exceeds the maximum allowed value of 10 bytes. Use --http-max-input-size"
            + " to increase the limit.", tooBig.getMessage());
        final InferenceException corrupt = assertThrows(InferenceException.class,
            () -> ContentCoding.DEFLATE.decode(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4}),
                new HttpInputLimit(100), budget, alloc));
        assertEquals(ErrorCode.INVALID_ARG, corrupt.code());
        assertEquals(0, budget.held());

        // A decompression bomb within the size limit but beyond the memory budget is a 503 (UNAVAILABLE).
        final ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bomb))
        {
            out.write(new byte[1 << 20]);
        }
        final RequestBodyBudget small = new RequestBodyBudget(64 * 1024);
        final InferenceException spent = assertThrows(InferenceException.class,
            () -> ContentCoding.GZIP.decode(Unpooled.wrappedBuffer(bomb.toByteArray()), new HttpInputLimit(4 << 20),
                small, alloc));
        assertEquals(ErrorCode.UNAVAILABLE, spent.code());
        assertTrue(spent.getMessage().startsWith("Server is out of memory for request bodies"), spent.getMessage());
        assertEquals(0, small.held());
    }

    @Test
    void encodesGzipAndZlibWrappedDeflate() throws IOException
    {
        final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        final ByteBuf gzip = ContentCoding.GZIP.encode(Unpooled.copiedBuffer(TEXT), alloc);
        final byte[] gzipBytes = new byte[gzip.readableBytes()];
        gzip.readBytes(gzipBytes);
        gzip.release();
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipBytes)))
        {
            assertArrayEquals(TEXT, in.readAllBytes());
        }
        final ByteBuf deflate = ContentCoding.DEFLATE.encode(Unpooled.copiedBuffer(TEXT), alloc);
        final byte[] deflateBytes = new byte[deflate.readableBytes()];
        deflate.readBytes(deflateBytes);
        deflate.release();
        // RFC 1950: a zlib header, which Python's zlib.decompress requires.
        assertEquals(0x78, deflateBytes[0] & 0xFF);
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(deflateBytes)))
        {
            assertArrayEquals(TEXT, in.readAllBytes());
        }
    }
}
